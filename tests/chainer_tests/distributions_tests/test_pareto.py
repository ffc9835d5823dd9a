import numpy

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestPareto(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Pareto
        self.scipy_dist = _common.stats.pareto
        self.test_targets = {'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
                             'log_prob', 'mean', 'sample', 'support', 'variance'}
        scale = _common.log_uniform(0, 1, self.shape)
        # alpha > 4 keeps the fourth moment finite, so that sample deviations settle.
        alpha = _common.uniform(5, 8, self.shape)
        self.params = {'scale': scale, 'alpha': alpha}
        self.scipy_params = {'b': alpha, 'scale': scale}
        self.support = '[scale, inf]'

    def sample_for_test(self):
        return _common.uniform(3, 6, self.sample_shape + self.shape)


def test_diverging_moments_and_points_below_the_scale():
    d = distributions.Pareto(numpy.float32([1, 1, 1]), numpy.float32([0.5, 1.5, 3]))
    numpy.testing.assert_allclose(d.mean.array, [numpy.inf, 3, 1.5])
    numpy.testing.assert_allclose(d.variance.array, [numpy.inf, numpy.inf, 0.75])
    assert numpy.all(d.log_prob(numpy.float32([0.5, -1, 0.9])).array == -numpy.inf)


testing.run_module(__name__, __file__)
