"""The beta distribution."""
import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache


def _lbeta(a, b):
    """``log B(a, b)``, the logarithm of the beta function."""
    return F.lgamma(a) + F.lgamma(b) - F.lgamma(a + b)


class Beta(_params.ScalarEvent):
    """Beta distribution.

    .. math::
        p(x; a, b) = \\frac{x^{a-1}(1-x)^{b-1}}{B(a, b)} \\quad (0 \\le x \\le 1)

    Args:
        a (~chainer.Variable or :ref:`ndarray`): The first shape parameter.
        b (~chainer.Variable or :ref:`ndarray`): The second shape parameter.
    """

    _param_names = ('a', 'b')
    _support = '[0, 1]'

    def __init__(self, a, b):
        self.a, self.b = _params.prepare('Beta', {'a': a, 'b': b})
        _params.positive('Beta', a=self.a, b=self.b)

    @cache.cached_property
    def _a_plus_b(self):
        return self.a + self.b

    @cache.cached_property
    def mean(self):
        return self.a / self._a_plus_b

    @cache.cached_property
    def variance(self):
        apb = self._a_plus_b
        return self.a * self.b / (F.square(apb) * (apb + 1))

    @cache.cached_property
    def entropy(self):
        return (_lbeta(self.a, self.b) - (self.a - 1) * F.digamma(self.a)
                - (self.b - 1) * F.digamma(self.b)
                + (self._a_plus_b - 2) * F.digamma(self._a_plus_b))

    def log_prob(self, x):
        array = _params.as_array(x)
        outside = (array < 0) | (array > 1)
        x = _params.as_input(_params.replace(x, outside, 0.5))
        log_p = ((self.a - 1) * F.log(x) + (self.b - 1) * F.log1p(-x)
                 - _lbeta(self.a, self.b))
        return _params.fill(log_p, outside, -numpy.inf)

    def sample_n(self, n):
        xp = self.xp
        size = _params.sample_size(n, self)
        a = xp.broadcast_to(self.a.array, size)
        b = xp.broadcast_to(self.b.array, size)
        return _params.constant(xp.random.beta(a, b).astype(self.a.dtype, copy=False))


@distribution.register_kl(Beta, Beta)
def _kl_beta_beta(dist1, dist2):
    return (_lbeta(dist2.a, dist2.b) - _lbeta(dist1.a, dist1.b)
            + (dist1.a - dist2.a) * F.digamma(dist1.a)
            + (dist1.b - dist2.b) * F.digamma(dist1.b)
            + (dist2._a_plus_b - dist1._a_plus_b) * F.digamma(dist1._a_plus_b))
