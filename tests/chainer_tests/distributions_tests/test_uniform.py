import numpy

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
@testing.parameterize(*testing.product({'use_loc_scale': [True, False]}))
class TestUniform(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Uniform
        self.scipy_dist = _common.stats.uniform
        self.test_targets = {'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
                             'log_prob', 'mean', 'prob', 'sample', 'stddev', 'support',
                             'variance'}
        low = _common.uniform(-3, 0, self.shape)
        scale = _common.uniform(1, 4, self.shape)
        self.params = ({'loc': low, 'scale': scale} if self.use_loc_scale
                       else {'low': low, 'high': numpy.asarray(low + scale)})
        self.scipy_params = {'loc': low, 'scale': scale}
        self.support = '[low, high]'

    def sample_for_test(self):
        # Points inside and outside the support, where the density is 0.
        return _common.uniform(-4, 5, self.sample_shape + self.shape)


testing.run_module(__name__, __file__)
