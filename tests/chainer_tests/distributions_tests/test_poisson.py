import numpy

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestPoisson(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Poisson
        self.scipy_dist = _common.stats.poisson
        self.test_targets = {'batch_shape', 'event_shape', 'log_prob', 'mean', 'prob',
                             'sample', 'stddev', 'support', 'variance'}
        lam = _common.uniform(0.5, 10, self.shape)
        self.params = {'lam': lam}
        self.scipy_params = {'mu': lam}
        self.support = 'non negative integer'
        self.continuous = False

    def sample_for_test(self):
        return numpy.random.randint(0, 15, self.sample_shape + self.shape).astype(numpy.int32)


testing.run_module(__name__, __file__)
