"""The Gumbel distribution."""
import math

import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache

EULER = float(numpy.euler_gamma)


class Gumbel(_params.LocScale):
    """Gumbel (type-I extreme value) distribution.

    .. math::
        p(x; \\mu, \\beta) = \\frac{1}{\\beta} \\exp(-(z + e^{-z})),
        \\quad z = \\frac{x - \\mu}{\\beta}

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The location :math:`\\mu`.
        scale (~chainer.Variable or :ref:`ndarray`): The scale :math:`\\beta`.
    """

    _name = 'Gumbel'

    @cache.cached_property
    def _log_scale(self):
        return F.log(self.scale)

    @cache.cached_property
    def mean(self):
        return self.loc + EULER * self.scale

    @cache.cached_property
    def variance(self):
        return F.square(self.scale) * (math.pi ** 2 / 6)

    @cache.cached_property
    def entropy(self):
        return self._log_scale + (EULER + 1)

    def log_prob(self, x):
        z = self._z(x)
        return -self._log_scale - z - F.exp(-z)

    def cdf(self, x):
        return F.exp(-F.exp(-self._z(x)))

    def icdf(self, x):
        x = _params.as_input(x)
        return self.loc - self.scale * F.log(-F.log(x))

    def sample_n(self, n):
        eps = _params.standard(self.xp, 'gumbel', _params.sample_size(n, self), self.loc.dtype)
        return self.loc + self.scale * eps


@distribution.register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(dist1, dist2):
    # E_p[exp(-(x - mu2) / beta2)] = exp((mu2 - mu1) / beta2) * Gamma(1 + beta1 / beta2)
    ratio = dist1.scale / dist2.scale
    return (dist2._log_scale - dist1._log_scale - (EULER + 1)
            + (dist1.mean - dist2.loc) / dist2.scale
            + F.exp((dist2.loc - dist1.loc) / dist2.scale + F.lgamma(ratio + 1)))
