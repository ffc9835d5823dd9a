"""The Dirichlet distribution."""
import numpy

from chainer import distribution
from chainer import functions as F
from chainer.distributions import _params
from chainer.utils import cache


def _lbeta(x):
    """The logarithm of the multivariate beta function of the last axis of ``x``."""
    return F.sum(F.lgamma(x), axis=-1) - F.lgamma(F.sum(x, axis=-1))


class Dirichlet(distribution.Distribution):
    """Dirichlet distribution over probability vectors of length ``K``.

    .. math::
        p(x; \\alpha) = \\frac{1}{B(\\alpha)} \\prod_{i=1}^K x_i^{\\alpha_i - 1}

    Args:
        alpha (~chainer.Variable or :ref:`ndarray`): The concentrations, of
            shape ``batch_shape + (K,)``.
    """

    def __init__(self, alpha):
        self.alpha, = _params.prepare('Dirichlet', {'alpha': alpha}, {'alpha': 1})
        _params.positive('Dirichlet', alpha=self.alpha)

    @cache.cached_property
    def alpha0(self):
        return F.sum(self.alpha, axis=-1)

    @property
    def batch_shape(self):
        return self.alpha.shape[:-1]

    @property
    def event_shape(self):
        return self.alpha.shape[-1:]

    @property
    def params(self):
        return {'alpha': self.alpha}

    @property
    def support(self):
        return '[0, 1]'

    @cache.cached_property
    def _alpha0_expanded(self):
        return F.expand_dims(self.alpha0, -1)

    @cache.cached_property
    def mean(self):
        return self.alpha / self._alpha0_expanded

    @cache.cached_property
    def variance(self):
        a0 = self._alpha0_expanded
        return self.alpha * (a0 - self.alpha) / (F.square(a0) * (a0 + 1))

    @cache.cached_property
    def entropy(self):
        k = self.alpha.shape[-1]
        return (_lbeta(self.alpha)
                + (self.alpha0 - k) * F.digamma(self.alpha0)
                - F.sum((self.alpha - 1) * F.digamma(self.alpha), axis=-1))

    def log_prob(self, x):
        array = _params.as_array(x)
        outside = (array < 0) | (array > 1)
        x = _params.replace(x, outside, 0.5)
        log_p = (F.sum((self.alpha - 1) * F.log(x), axis=-1)
                 - _lbeta(self.alpha))
        return _params.fill(log_p, outside.any(axis=-1), -numpy.inf)

    def sample_n(self, n):
        xp = self.xp
        # Chainer 7.8.1 calls numpy.random.dirichlet(row, n) for each row of the batch in
        # turn, which draws n gammas per row, row after row: the same stream as one
        # standard_gamma over (batch..., n, K), normalised by the reciprocal of each sum.
        alpha = self.alpha.array
        shape = alpha.shape[:-1] + (n,) + alpha.shape[-1:]
        g = xp.random.standard_gamma(xp.broadcast_to(alpha[..., None, :], shape))
        x = g * (1 / g.sum(axis=-1, keepdims=True))
        return _params.constant(xp.moveaxis(x, -2, 0).astype(self.alpha.dtype, copy=False))


@distribution.register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(dist1, dist2):
    digamma_gap = F.digamma(dist1.alpha) - F.expand_dims(F.digamma(dist1.alpha0), -1)
    return (-_lbeta(dist1.alpha)
            + _lbeta(dist2.alpha)
            + F.sum((dist1.alpha - dist2.alpha) * digamma_gap, axis=-1))
