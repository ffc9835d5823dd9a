"""The Pareto distribution."""
import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache


class Pareto(_params.ScalarEvent):
    """Pareto distribution.

    .. math::
        p(x; x_m, \\alpha) = \\frac{\\alpha x_m^\\alpha}{x^{\\alpha+1}} \\quad (x \\ge x_m)

    Args:
        scale (~chainer.Variable or :ref:`ndarray`): The scale :math:`x_m`.
        alpha (~chainer.Variable or :ref:`ndarray`): The shape :math:`\\alpha`.
    """

    _param_names = ('scale', 'alpha')
    _support = '[scale, inf]'

    def __init__(self, scale, alpha):
        self.scale, self.alpha = _params.prepare('Pareto', {'scale': scale, 'alpha': alpha})
        _params.positive('Pareto', scale=self.scale, alpha=self.alpha)

    @cache.cached_property
    def _log_scale(self):
        return F.log(self.scale)

    @cache.cached_property
    def _log_alpha(self):
        return F.log(self.alpha)

    def _where_alpha_above(self, bound, formula):
        # `formula(alpha)` where alpha > bound, infinity elsewhere (the moment diverges).
        diverges = self.alpha.array <= bound
        alpha = _params.replace(self.alpha, diverges, bound + 1)
        return _params.fill(formula(alpha), diverges, numpy.inf)

    @cache.cached_property
    def mean(self):
        return self._where_alpha_above(1, lambda a: a * self.scale / (a - 1))

    @property
    def mode(self):
        return self.scale

    @cache.cached_property
    def variance(self):
        return self._where_alpha_above(
            2, lambda a: F.square(self.scale) * a / (F.square(a - 1) * (a - 2)))

    @cache.cached_property
    def entropy(self):
        return self._log_scale - self._log_alpha + 1 / self.alpha + 1

    def log_prob(self, x):
        array = _params.as_array(x)
        x = _params.replace(x, array <= 0, 1)
        log_p = (self._log_alpha + self.alpha * self._log_scale
                 - (self.alpha + 1) * F.log(x))
        return _params.fill(log_p, array < self.scale.array, -numpy.inf)

    def cdf(self, x):
        array = _params.as_array(x)
        x = _params.replace(x, array <= 0, 1)
        cdf = -F.expm1(self.alpha * (self._log_scale - F.log(x)))
        return _params.fill(cdf, array < self.scale.array, 0)

    def icdf(self, x):
        x = _params.as_input(x)
        return self.scale * F.exp(-F.log1p(-x) / self.alpha)

    def sample_n(self, n):
        eps = _params.standard(self.xp, 'standard_exponential', _params.sample_size(n, self),
                               self.scale.dtype)
        return self.scale * F.exp(eps / self.alpha)


@distribution.register_kl(Pareto, Pareto)
def _kl_pareto_pareto(dist1, dist2):
    kl = (dist1._log_alpha - dist2._log_alpha
          + dist2.alpha * (dist1._log_scale - dist2._log_scale)
          + dist2.alpha / dist1.alpha - 1)
    # p's support [scale1, inf) must lie inside q's [scale2, inf).
    return _params.fill(kl, dist1.scale.array < dist2.scale.array, numpy.inf)
