"""The normal (Gaussian) distribution."""
import math

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache

_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)
# the density's log constant, its constant, and the entropy's constant (Chainer's names)
LOGPROBC = -_LOG_SQRT_2PI
PROBC = 1.0 / math.sqrt(2 * math.pi)
ENTROPYC = 0.5 * math.log(2 * math.pi * math.e)


class Normal(_params.ScalarEvent):
    """Normal distribution.

    .. math::
        p(x; \\mu, \\sigma) = \\frac{1}{\\sqrt{2\\pi\\sigma^2}}
            \\exp\\left(-\\frac{(x - \\mu)^2}{2\\sigma^2}\\right)

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The mean :math:`\\mu`.
        scale (~chainer.Variable or :ref:`ndarray`): The standard deviation
            :math:`\\sigma`. Give either ``scale`` or ``log_scale``.
        log_scale (~chainer.Variable or :ref:`ndarray`): :math:`\\log\\sigma`
            (keyword only), the unconstrained alternative to ``scale``.
    """

    _param_names = ('loc', 'scale')
    _support = 'real'

    def __init__(self, loc, scale=None, **kwargs):
        log_scale, = _params.parse_extra_kwargs('Normal', kwargs, 'log_scale')
        given_scale = _params.one_of('Normal', (scale,), (log_scale,), 'scale', 'log_scale')
        other = scale if given_scale else log_scale
        self.loc, other = _params.prepare('Normal', {
            'loc': loc, 'scale' if given_scale else 'log_scale': other})
        if given_scale:
            _params.positive('Normal', scale=other)
        self._scale, self._log_scale = (other, None) if given_scale else (None, other)

    @cache.cached_property
    def scale(self):
        return self._scale if self._scale is not None else F.exp(self._log_scale)

    @cache.cached_property
    def log_scale(self):
        return self._log_scale if self._log_scale is not None else F.log(self._scale)

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @cache.cached_property
    def variance(self):
        return F.square(self.scale)

    @property
    def stddev(self):
        return self.scale

    @cache.cached_property
    def entropy(self):
        return self.log_scale + (_LOG_SQRT_2PI + 0.5)

    def _z(self, x):
        return (x - self.loc) / self.scale

    def log_prob(self, x):
        return -0.5 * F.square(self._z(x)) - self.log_scale - _LOG_SQRT_2PI

    def cdf(self, x):
        return F.ndtr(self._z(x))

    def log_cdf(self, x):
        return F.log_ndtr(self._z(x))

    def survival_function(self, x):
        return F.ndtr(-self._z(x))

    def log_survival_function(self, x):
        return F.log_ndtr(-self._z(x))

    def icdf(self, x):
        return self.loc + self.scale * F.ndtri(x)

    def sample_n(self, n):
        xp = self.xp
        eps = _params.standard(xp, 'standard_normal', _params.sample_size(n, self),
                               self.loc.dtype)
        return self.loc + self.scale * eps


@distribution.register_kl(Normal, Normal)
def _kl_normal_normal(dist1, dist2):
    ratio = F.square(dist1.scale / dist2.scale)
    return (0.5 * (ratio + F.square((dist1.loc - dist2.loc) / dist2.scale) - 1)
            + dist2.log_scale - dist1.log_scale)
