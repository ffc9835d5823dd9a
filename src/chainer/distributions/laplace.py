"""The Laplace distribution."""
import math

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache


class Laplace(_params.LocScale):
    """Laplace (double exponential) distribution.

    .. math::
        p(x; \\mu, b) = \\frac{1}{2b} \\exp\\left(-\\frac{|x - \\mu|}{b}\\right)

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The location :math:`\\mu`.
        scale (~chainer.Variable or :ref:`ndarray`): The scale :math:`b`.
    """

    _name = 'Laplace'

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @cache.cached_property
    def variance(self):
        return 2 * F.square(self.scale)

    @cache.cached_property
    def stddev(self):
        return math.sqrt(2) * self.scale

    @cache.cached_property
    def entropy(self):
        return F.log(self.scale) + (math.log(2) + 1)

    def log_prob(self, x):
        return -F.absolute(self._z(x)) - F.log(self.scale) - math.log(2)

    def cdf(self, x):
        z = self._z(x)
        return 0.5 - 0.5 * F.sign(z) * F.expm1(-F.absolute(z))

    def icdf(self, x):
        x = _params.as_input(x)
        centred = x - 0.5
        return self.loc - self.scale * F.sign(centred) * F.log1p(-2 * F.absolute(centred))

    def sample_n(self, n):
        eps = _params.standard(self.xp, 'laplace', _params.sample_size(n, self), self.loc.dtype)
        return self.loc + self.scale * eps


@distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1, dist2):
    distance = F.absolute(dist1.loc - dist2.loc)
    return (F.log(dist2.scale) - F.log(dist1.scale) + distance / dist2.scale
            + dist1.scale / dist2.scale * F.exp(-distance / dist1.scale) - 1)
