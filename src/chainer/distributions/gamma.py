"""The gamma distribution."""
import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache


class Gamma(_params.ScalarEvent):
    """Gamma distribution (shape-scale parameterisation).

    .. math::
        p(x; k, \\theta) = \\frac{x^{k-1} e^{-x/\\theta}}{\\Gamma(k)\\theta^k}
        \\quad (x > 0)

    Samples are differentiable with respect to ``theta`` (not ``k``).

    Args:
        k (~chainer.Variable or :ref:`ndarray`): The shape :math:`k`.
        theta (~chainer.Variable or :ref:`ndarray`): The scale :math:`\\theta`.
    """

    _param_names = ('k', 'theta')
    _support = 'positive'

    def __init__(self, k, theta):
        self.k, self.theta = _params.prepare('Gamma', {'k': k, 'theta': theta})
        _params.positive('Gamma', k=self.k, theta=self.theta)

    @cache.cached_property
    def mean(self):
        return self.k * self.theta

    @cache.cached_property
    def variance(self):
        return self.mean * self.theta

    @cache.cached_property
    def entropy(self):
        return (self.k + F.log(self.theta) + F.lgamma(self.k)
                + (1 - self.k) * F.digamma(self.k))

    def log_prob(self, x):
        outside = _params.as_array(x) <= 0
        x = _params.replace(x, outside, 1)
        log_p = (-F.lgamma(self.k) - self.k * F.log(self.theta)
                 + (self.k - 1) * F.log(x) - x / self.theta)
        return _params.fill(log_p, outside, -numpy.inf)

    def sample_n(self, n):
        xp = self.xp
        k = xp.broadcast_to(self.k.array, _params.sample_size(n, self))
        eps = xp.random.standard_gamma(k).astype(self.k.dtype, copy=False)
        return eps * self.theta


@distribution.register_kl(Gamma, Gamma)
def _kl_gamma_gamma(dist1, dist2):
    log_ratio = F.log(dist2.theta) - F.log(dist1.theta)
    return ((dist1.k - dist2.k) * F.digamma(dist1.k) - F.lgamma(dist1.k) + F.lgamma(dist2.k)
            + dist2.k * log_ratio + dist1.k * (dist1.theta / dist2.theta - 1))
