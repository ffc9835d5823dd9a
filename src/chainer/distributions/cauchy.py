"""The Cauchy distribution."""
import math
import warnings

from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache


def _cauchy_icdf(x):
    """The inverse CDF of the standard Cauchy distribution: ``tan(pi (x - 1/2))``."""
    return F.tan((x - 0.5) * math.pi)


class Cauchy(_params.LocScale):
    """Cauchy distribution.

    .. math::
        p(x; x_0, \\gamma) = \\frac{1}{\\pi\\gamma
            \\left[1 + \\left(\\frac{x - x_0}{\\gamma}\\right)^2\\right]}

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The location :math:`x_0`.
        scale (~chainer.Variable or :ref:`ndarray`): The scale :math:`\\gamma`.
    """

    _name = 'Cauchy'

    def _undefined(self, what):
        warnings.warn(f'{what} of the cauchy distribution is undefined.', RuntimeWarning)
        xp = self.xp
        return _params.constant(xp.full(self.batch_shape, xp.nan, self.loc.dtype))

    @property
    def mean(self):
        return self._undefined('Mean')

    @property
    def variance(self):
        return self._undefined('Variance')

    @cache.cached_property
    def entropy(self):
        return F.log(self.scale) + math.log(4 * math.pi)

    def log_prob(self, x):
        return -F.log1p(F.square(self._z(x))) - F.log(self.scale) - math.log(math.pi)

    def cdf(self, x):
        return F.arctan(self._z(x)) / math.pi + 0.5

    def icdf(self, x):
        x = _params.as_input(x)
        return self.loc + self.scale * _cauchy_icdf(x)

    def sample_n(self, n):
        eps = _params.standard(self.xp, 'standard_cauchy', _params.sample_size(n, self),
                               self.loc.dtype)
        return self.loc + self.scale * eps
