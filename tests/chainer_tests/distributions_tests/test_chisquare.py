import numpy

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestChisquare(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Chisquare
        self.scipy_dist = _common.stats.chi2
        self.test_targets = {'batch_shape', 'entropy', 'event_shape', 'log_prob', 'mean',
                             'sample', 'stddev', 'support', 'variance'}
        k = numpy.random.randint(1, 10, self.shape).astype(numpy.float32)
        self.params = {'k': k}
        self.scipy_params = {'df': k}
        self.support = 'positive'

    def sample_for_test(self):
        return _common.uniform(0.1, 10, self.sample_shape + self.shape)


testing.run_module(__name__, __file__)
