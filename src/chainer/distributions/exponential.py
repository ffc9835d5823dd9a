"""The exponential distribution."""
import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache


class Exponential(_params.ScalarEvent):
    """Exponential distribution.

    .. math::
        p(x; \\lambda) = \\lambda e^{-\\lambda x} \\quad (x \\ge 0)

    Args:
        lam (~chainer.Variable or :ref:`ndarray`): The rate :math:`\\lambda`.
    """

    _param_names = ('lam',)
    _support = 'positive'

    def __init__(self, lam):
        self.lam, = _params.prepare('Exponential', {'lam': lam})
        _params.positive('Exponential', lam=self.lam)

    @cache.cached_property
    def _log_lam(self):
        return F.log(self.lam)

    @cache.cached_property
    def mean(self):
        return 1 / self.lam

    @property
    def mode(self):
        return _params.constant(self.xp.zeros(self.batch_shape, self.lam.dtype))

    @cache.cached_property
    def variance(self):
        return 1 / F.square(self.lam)

    @property
    def stddev(self):
        return self.mean

    @cache.cached_property
    def entropy(self):
        return 1 - self._log_lam

    def log_prob(self, x):
        outside = _params.as_array(x) < 0
        x = _params.replace(x, outside, 0)
        return _params.fill(self._log_lam - self.lam * x, outside, -numpy.inf)

    def cdf(self, x):
        outside = _params.as_array(x) < 0
        x = _params.replace(x, outside, 0)
        return -F.expm1(-self.lam * x)

    def icdf(self, x):
        x = _params.as_input(x)
        return -F.log1p(-x) / self.lam

    def sample_n(self, n):
        eps = _params.standard(self.xp, 'standard_exponential', _params.sample_size(n, self),
                               self.lam.dtype)
        return eps / self.lam


@distribution.register_kl(Exponential, Exponential)
def _kl_exponential_exponential(dist1, dist2):
    return dist1._log_lam - dist2._log_lam + dist2.lam / dist1.lam - 1
