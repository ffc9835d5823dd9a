from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestBeta(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Beta
        self.scipy_dist = _common.stats.beta
        self.test_targets = {'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
                             'prob', 'sample', 'stddev', 'support', 'variance'}
        a = _common.uniform(0.5, 5, self.shape)
        b = _common.uniform(0.5, 5, self.shape)
        self.params = {'a': a, 'b': b}
        self.scipy_params = {'a': a, 'b': b}
        self.support = '[0, 1]'

    def sample_for_test(self):
        return _common.uniform(0.01, 0.99, self.sample_shape + self.shape)


def test_log_prob_is_minus_inf_off_the_support():
    import numpy
    d = distributions.Beta(numpy.float32([2, 2]), numpy.float32([3, 3]))
    assert numpy.all(d.log_prob(numpy.float32([-0.5, 1.5])).array == -numpy.inf)


testing.run_module(__name__, __file__)
