"""The chi-square distribution."""
import math

import numpy

from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache


class Chisquare(_params.ScalarEvent):
    """Chi-square distribution with ``k`` degrees of freedom.

    .. math::
        p(x; k) = \\frac{x^{k/2-1} e^{-x/2}}{2^{k/2}\\Gamma(k/2)} \\quad (x > 0)

    Args:
        k (~chainer.Variable or :ref:`ndarray`): The degrees of freedom :math:`k`.
    """

    _param_names = ('k',)
    _support = 'positive'

    def __init__(self, k):
        self.k, = _params.prepare('Chisquare', {'k': k})
        _params.positive('Chisquare', k=self.k)

    @cache.cached_property
    def _half_k(self):
        return 0.5 * self.k

    @property
    def mean(self):
        return self.k

    @cache.cached_property
    def variance(self):
        return 2 * self.k

    @cache.cached_property
    def entropy(self):
        h = self._half_k
        return h + math.log(2) + F.lgamma(h) + (1 - h) * F.digamma(h)

    def log_prob(self, x):
        outside = _params.as_array(x) <= 0
        x = _params.replace(x, outside, 1)
        h = self._half_k
        log_p = (h - 1) * F.log(x) - 0.5 * x - h * math.log(2) - F.lgamma(h)
        return _params.fill(log_p, outside, -numpy.inf)

    def sample_n(self, n):
        xp = self.xp
        k = xp.broadcast_to(self.k.array, _params.sample_size(n, self))
        return _params.constant(xp.random.chisquare(k).astype(self.k.dtype, copy=False))
