"""The Poisson distribution."""
import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache


class Poisson(_params.ScalarEvent):
    """Poisson distribution.

    .. math::
        P(x; \\lambda) = \\frac{\\lambda^x e^{-\\lambda}}{x!} \\quad (x = 0, 1, 2, \\dots)

    Args:
        lam (~chainer.Variable or :ref:`ndarray`): The rate :math:`\\lambda`.
    """

    _param_names = ('lam',)
    _support = 'non negative integer'

    def __init__(self, lam):
        self.lam, = _params.prepare('Poisson', {'lam': lam})
        _params.positive('Poisson', lam=self.lam)

    @cache.cached_property
    def _log_lam(self):
        return F.log(self.lam)

    @property
    def mean(self):
        return self.lam

    @property
    def variance(self):
        return self.lam

    def log_prob(self, x):
        array = _params.as_array(x)
        outside = array < 0
        x = _params.as_input(self.xp.where(outside, 0, array).astype(self.lam.dtype, copy=False))
        log_p = x * self._log_lam - self.lam - F.lgamma(x + 1)
        return _params.fill(log_p, outside, -numpy.inf)

    def sample_n(self, n):
        xp = self.xp
        lam = xp.broadcast_to(self.lam.array, _params.sample_size(n, self))
        return _params.constant(xp.random.poisson(lam).astype(self.lam.dtype, copy=False))


@distribution.register_kl(Poisson, Poisson)
def _kl_poisson_poisson(dist1, dist2):
    return dist1.lam * (dist1._log_lam - dist2._log_lam) - dist1.lam + dist2.lam
