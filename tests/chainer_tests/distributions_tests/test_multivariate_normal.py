import numpy
import pytest

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


def _scale_tril(shape, d, dtype=numpy.float32):
    a = numpy.random.normal(size=shape + (d, d))
    cov = a @ numpy.swapaxes(a, -1, -2) + numpy.eye(d)
    return numpy.linalg.cholesky(cov).astype(dtype)


@_common.scipy_case
class TestMultivariateNormal(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.MultivariateNormal
        self.scipy_dist = _common.stats.multivariate_normal
        self.test_targets = {'batch_shape', 'entropy', 'event_shape', 'log_prob', 'sample',
                             'support'}
        loc = _common.uniform(-1, 1, self.shape + (3,))
        scale_tril = _scale_tril(self.shape, 3)
        self.params = {'loc': loc, 'scale_tril': scale_tril}
        self.scipy_params = {'mean': loc,
                             'cov': scale_tril @ numpy.swapaxes(scale_tril, -1, -2)}
        self.event_shape = (3,)

    def sample_for_test(self):
        return numpy.random.normal(size=self.sample_shape + self.shape + (3,)).astype(
            numpy.float32)

    def test_covariance_and_variance(self):
        d = self.cpu_dist
        testing.assert_allclose(d.covariance.array, self.scipy_params['cov'], rtol=1e-5)
        testing.assert_allclose(d.variance.array,
                                numpy.diagonal(self.scipy_params['cov'], 0, -2, -1), rtol=1e-5)
        assert d.d == 3


def test_scale_tril_is_required_and_must_match_loc():
    with pytest.raises(ValueError, match='`scale_tril` must have a value'):
        distributions.MultivariateNormal(numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match='scale_tril must have shape'):
        distributions.MultivariateNormal(numpy.zeros(2, numpy.float32),
                                         scale_tril=numpy.eye(3, dtype=numpy.float32))


testing.run_module(__name__, __file__)
