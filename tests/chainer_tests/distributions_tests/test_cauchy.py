import numpy
import pytest

from chainer import distributions
from chainer import testing
from chainer_tests.distributions_tests import _common


@_common.scipy_case
class TestCauchy(testing.distribution_unittest):

    scipy_onebyone = True

    def setUp_configure(self):
        self.dist = distributions.Cauchy
        self.scipy_dist = _common.stats.cauchy
        self.test_targets = {'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf',
                             'log_prob', 'prob', 'support', 'survival'}
        loc = _common.uniform(-1, 1, self.shape)
        scale = _common.log_uniform(-1, 1, self.shape)
        self.params = {'loc': loc, 'scale': scale}
        self.scipy_params = {'loc': loc, 'scale': scale}

    def sample_for_test(self):
        return _common.uniform(-5, 5, self.sample_shape + self.shape)


def test_undefined_moments_warn_and_are_nan():
    d = distributions.Cauchy(numpy.float32([0, 1]), numpy.float32([1, 2]))
    for name in ('mean', 'variance'):
        with pytest.warns(RuntimeWarning, match='undefined'):
            value = getattr(d, name)
        assert value.shape == (2,) and numpy.all(numpy.isnan(value.array))


@testing.fix_random()
def test_sample_quartiles():
    # The moments do not exist; the quartiles are loc -+ scale.
    loc, scale = numpy.float32([0.5, -1]), numpy.float32([1, 3])
    s = distributions.Cauchy(loc, scale).sample(200000).array
    q1, q2, q3 = numpy.percentile(s, [25, 50, 75], axis=0)
    numpy.testing.assert_allclose(q2, loc, atol=3e-2)
    numpy.testing.assert_allclose(q3 - q1, 2 * scale, rtol=3e-2)


testing.run_module(__name__, __file__)
