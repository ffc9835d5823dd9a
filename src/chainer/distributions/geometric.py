"""The geometric distribution."""
import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.distributions import utils
from chainer.utils import cache


class Geometric(_params.ScalarEvent):
    """Geometric distribution: the number of Bernoulli trials up to the first success.

    .. math::
        P(x; p) = p (1 - p)^{x - 1} \\quad (x = 1, 2, 3, \\dots)

    Args:
        p (~chainer.Variable or :ref:`ndarray`): The success probability :math:`p`.
    """

    _param_names = ('p',)
    _support = 'positive integer'

    def __init__(self, p):
        self.p, = _params.prepare('Geometric', {'p': p})
        _params.probability('Geometric', p=self.p)

    @cache.cached_property
    def mean(self):
        return 1 / self.p

    @property
    def mode(self):
        return _params.constant(self.xp.ones(self.batch_shape, self.p.dtype))

    @cache.cached_property
    def variance(self):
        return (1 - self.p) / F.square(self.p)

    @cache.cached_property
    def entropy(self):
        return -(utils._modified_xlogx(1 - self.p) + utils._modified_xlogx(self.p)) / self.p

    def log_prob(self, x):
        array = _params.as_array(x)
        outside = array < 1
        x = _params.as_input(self.xp.where(outside, 1, array).astype(self.p.dtype, copy=False))
        return _params.fill((x - 1) * F.log1p(-self.p) + F.log(self.p), outside, -numpy.inf)

    def sample_n(self, n):
        xp = self.xp
        p = xp.broadcast_to(self.p.array, _params.sample_size(n, self))
        return _params.constant(xp.random.geometric(p).astype(self.p.dtype, copy=False))


@distribution.register_kl(Geometric, Geometric)
def _kl_geometric_geometric(dist1, dist2):
    # E_p[x - 1] = (1 - p1) / p1
    return (F.log(dist1.p) - F.log(dist2.p)
            + (1 - dist1.p) / dist1.p * (F.log1p(-dist1.p) - F.log1p(-dist2.p)))
