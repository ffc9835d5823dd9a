import numpy

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestLaplace(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Laplace
        self.scipy_dist = _common.stats.laplace
        self.test_targets = {'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
                             'log_prob', 'mean', 'prob', 'sample', 'stddev', 'support',
                             'survival', 'variance'}
        loc = _common.uniform(-1, 1, self.shape)
        scale = _common.log_uniform(-1, 1, self.shape)
        self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}

    def sample_for_test(self):
        return _common.uniform(-3, 3, self.sample_shape + self.shape)


def test_mode_is_loc():
    loc = numpy.float32([0.5, -1])
    assert distributions.Laplace(loc, numpy.float32([1, 2])).mode.array.tolist() == [0.5, -1]


testing.run_module(__name__, __file__)
