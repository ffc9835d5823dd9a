import numpy

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
@testing.parameterize(*testing.product({'log_scale_option': [True, False]}))
class TestNormal(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Normal
        self.scipy_dist = _common.stats.norm
        self.test_targets = {
            'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf', 'log_cdf', 'log_prob',
            'log_survival', 'mean', 'prob', 'sample', 'stddev', 'support', 'survival',
            'variance'}
        loc = _common.uniform(-1, 1, self.shape)
        log_scale = _common.uniform(-1, 1, self.shape)
        scale = numpy.asarray(numpy.exp(log_scale))
        self.params = ({'loc': loc, 'log_scale': log_scale} if self.log_scale_option
                       else {'loc': loc, 'scale': scale})
        self.scipy_params = {'loc': loc, 'scale': scale}

    def sample_for_test(self):
        return _common.uniform(-3, 3, self.sample_shape + self.shape)


testing.run_module(__name__, __file__)
