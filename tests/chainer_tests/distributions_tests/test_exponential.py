import numpy

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestExponential(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Exponential
        self.scipy_dist = _common.stats.expon
        self.test_targets = {'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
                             'log_cdf', 'log_prob', 'log_survival', 'mean', 'prob', 'sample',
                             'stddev', 'support', 'survival', 'variance'}
        lam = _common.log_uniform(-1, 1, self.shape)
        self.params = {'lam': lam}
        self.scipy_params = {'scale': 1 / lam}
        self.support = 'positive'

    def sample_for_test(self):
        return _common.uniform(0.05, 3, self.sample_shape + self.shape)


def test_negative_points():
    d = distributions.Exponential(numpy.float32([2, 2]))
    x = numpy.float32([-0.5, 0])
    numpy.testing.assert_allclose(d.log_prob(x).array, [-numpy.inf, numpy.log(2)], rtol=1e-6)
    numpy.testing.assert_array_equal(d.cdf(x).array, [0, 0])


testing.run_module(__name__, __file__)
