import numpy

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestGeometric(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Geometric
        self.scipy_dist = _common.stats.geom
        self.test_targets = {'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
                             'prob', 'sample', 'stddev', 'support', 'variance'}
        p = _common.uniform(0.2, 0.9, self.shape)
        self.params = {'p': p}
        self.scipy_params = {'p': p}
        self.support = 'positive integer'
        self.continuous = False

    def sample_for_test(self):
        return numpy.random.randint(1, 10, self.sample_shape + self.shape).astype(numpy.float32)


def test_points_below_one_have_no_mass():
    d = distributions.Geometric(numpy.float32([0.5]))
    assert d.log_prob(numpy.float32([0])).array[0] == -numpy.inf


testing.run_module(__name__, __file__)
