
from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestGumbel(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Gumbel
        self.scipy_dist = _common.stats.gumbel_r
        self.test_targets = {'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
                             'log_prob', 'mean', 'prob', 'sample', 'stddev', 'support',
                             'variance'}
        loc = _common.uniform(-1, 1, self.shape)
        scale = _common.log_uniform(-1, 0, self.shape)
        self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}

    def sample_for_test(self):
        return _common.uniform(-2, 4, self.sample_shape + self.shape)


testing.run_module(__name__, __file__)
