
from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestGamma(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Gamma
        self.scipy_dist = _common.stats.gamma
        self.test_targets = {'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
                             'sample', 'stddev', 'support', 'variance'}
        k = _common.uniform(0.5, 5, self.shape)
        theta = _common.uniform(0.5, 2, self.shape)
        self.params = {'k': k, 'theta': theta}
        self.scipy_params = {'a': k, 'scale': theta}
        self.support = 'positive'

    def sample_for_test(self):
        return _common.uniform(0.1, 5, self.sample_shape + self.shape)


testing.run_module(__name__, __file__)
