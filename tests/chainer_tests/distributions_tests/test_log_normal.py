import numpy

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestLogNormal(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.LogNormal
        self.scipy_dist = _common.stats.lognorm
        self.test_targets = {'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
                             'log_prob', 'mean', 'sample', 'support', 'variance'}
        mu = _common.uniform(-1, 1, self.shape)
        sigma = _common.log_uniform(-1, 0, self.shape)
        self.params = {'mu': mu, 'sigma': sigma}
        self.scipy_params = {'s': sigma, 'scale': numpy.exp(mu)}
        self.support = 'positive'

    def sample_for_test(self):
        return _common.uniform(0.05, 5, self.sample_shape + self.shape)


testing.run_module(__name__, __file__)
