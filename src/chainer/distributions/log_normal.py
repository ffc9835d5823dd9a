"""The log-normal distribution."""
import math

import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
LOGPROBC = -_LOG_SQRT_2PI     # (Chainer's name of the density's log constant)


class LogNormal(_params.ScalarEvent):
    """Log-normal distribution: ``log(x)`` is normal with mean ``mu`` and deviation ``sigma``.

    .. math::
        p(x; \\mu, \\sigma) = \\frac{1}{x\\sigma\\sqrt{2\\pi}}
            \\exp\\left(-\\frac{(\\log x - \\mu)^2}{2\\sigma^2}\\right) \\quad (x > 0)

    Args:
        mu (~chainer.Variable or :ref:`ndarray`): The mean of ``log(x)``.
        sigma (~chainer.Variable or :ref:`ndarray`): The standard deviation of ``log(x)``.
    """

    _param_names = ('mu', 'sigma')
    _support = 'positive'

    def __init__(self, mu, sigma):
        self.mu, self.sigma = _params.prepare('LogNormal', {'mu': mu, 'sigma': sigma})
        _params.positive('LogNormal', sigma=self.sigma)

    @cache.cached_property
    def _log_sigma(self):
        return F.log(self.sigma)

    @cache.cached_property
    def mean(self):
        return F.exp(self.mu + 0.5 * F.square(self.sigma))

    @cache.cached_property
    def mode(self):
        return F.exp(self.mu - F.square(self.sigma))

    @cache.cached_property
    def variance(self):
        s2 = F.square(self.sigma)
        return F.expm1(s2) * F.exp(2 * self.mu + s2)

    @cache.cached_property
    def entropy(self):
        return self.mu + self._log_sigma + (0.5 + _LOG_SQRT_2PI)

    def log_prob(self, x):
        outside = _params.as_array(x) <= 0
        log_x = F.log(_params.replace(x, outside, 1))
        log_p = (-0.5 * F.square((log_x - self.mu) / self.sigma)
                 - log_x - self._log_sigma - _LOG_SQRT_2PI)
        return _params.fill(log_p, outside, -numpy.inf)

    def cdf(self, x):
        outside = _params.as_array(x) <= 0
        log_x = F.log(_params.replace(x, outside, 1))
        return _params.fill(F.ndtr((log_x - self.mu) / self.sigma), outside, 0)

    def icdf(self, x):
        return F.exp(self.mu + self.sigma * F.ndtri(x))

    def sample_n(self, n):
        eps = _params.standard(self.xp, 'standard_normal', _params.sample_size(n, self),
                               self.mu.dtype)
        return F.exp(self.mu + self.sigma * eps)


@distribution.register_kl(LogNormal, LogNormal)
def _kl_log_normal_log_normal(dist1, dist2):
    return (dist2._log_sigma - dist1._log_sigma - 0.5
            + (F.square(dist1.sigma) + F.square(dist1.mu - dist2.mu))
            / (2 * F.square(dist2.sigma)))
