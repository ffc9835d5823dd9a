"""The multivariate normal distribution."""
import math

from chainer import backend
from chainer import distribution
from chainer import function_node
from chainer import functions as F
from chainer import utils
from chainer.distributions import _params
from chainer.utils import cache

_LOG_2PI = math.log(2 * math.pi)


class _Solve(function_node.FunctionNode):
    """``Z = A^{-1} B`` for batches of square matrices ``A`` and matrices ``B``."""

    def forward(self, inputs):
        a, b = inputs
        xp = backend.get_array_module(a)
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return utils.force_array(xp.linalg.solve(a, b), a.dtype),

    def backward(self, indexes, grad_outputs):
        a, = self.get_retained_inputs()
        z, = self.get_retained_outputs()
        gz, = grad_outputs
        # With A Z = B: dB = A^{-T} dZ and dA = -dB Z^T.
        gb = _solve(F.swapaxes(a, -1, -2), gz)
        ret = []
        if 0 in indexes:
            ret.append(-F.matmul(gb, z, transb=True))
        if 1 in indexes:
            ret.append(gb)
        return ret


def _solve(a, b):
    return _Solve().apply((a, b))[0]


def _solve_vectors(scale_tril, v):
    # L^{-1} v for vectors v of shape (..., d), L broadcast to v's batch shape.
    shape = v.shape[:-1] + scale_tril.shape[-2:]
    if scale_tril.shape != shape:
        scale_tril = F.broadcast_to(scale_tril, shape)
    return F.squeeze(_solve(scale_tril, F.expand_dims(v, -1)), -1)


def _log_diagonal_sum(scale_tril):
    return F.sum(F.log(F.diagonal(scale_tril, 0, -2, -1)), axis=-1)


class MultivariateNormal(distribution.Distribution):
    """Multivariate normal distribution given by its mean and a Cholesky factor.

    .. math::
        p(x; \\mu, L) = \\frac{1}{\\sqrt{(2\\pi)^d |LL^\\top|}}
            \\exp\\left(-\\tfrac{1}{2}(x - \\mu)^\\top (LL^\\top)^{-1} (x - \\mu)\\right)

    Args:
        loc (~chainer.Variable or :ref:`ndarray`): The mean, of shape
            ``batch_shape + (d,)``.
        scale_tril (~chainer.Variable or :ref:`ndarray`): A lower-triangular
            :math:`L` with a positive diagonal, of shape ``batch_shape + (d, d)``;
            the covariance is :math:`LL^\\top` (keyword only).
    """

    def __init__(self, loc, **kwargs):
        scale_tril, = _params.parse_extra_kwargs('MultivariateNormal', kwargs, 'scale_tril')
        if scale_tril is None:
            raise ValueError('MultivariateNormal: `scale_tril` must have a value.')
        self.loc, self.scale_tril = _params.prepare(
            'MultivariateNormal', {'loc': loc, 'scale_tril': scale_tril},
            {'loc': 1, 'scale_tril': 2})
        d = self.loc.shape[-1]
        if self.scale_tril.shape[-2:] != (d, d):
            raise ValueError(f'MultivariateNormal: scale_tril must have shape '
                             f'batch_shape + ({d}, {d}) to match loc.shape={self.loc.shape}, '
                             f'got {self.scale_tril.shape}')
        _params.validate('MultivariateNormal', 'the diagonal of scale_tril',
                         self.scale_tril, lambda a: a.diagonal(0, -2, -1) > 0, 'positive')

    @property
    def d(self):
        """int: The dimension of the events."""
        return self.loc.shape[-1]

    @cache.cached_property
    def _logdet_scale(self):
        return _log_diagonal_sum(self.scale_tril)

    @property
    def batch_shape(self):
        return self.loc.shape[:-1]

    @property
    def event_shape(self):
        return self.loc.shape[-1:]

    @property
    def params(self):
        return {'loc': self.loc, 'scale_tril': self.scale_tril}

    @property
    def support(self):
        return 'real'

    @property
    def mean(self):
        return self.loc

    @property
    def mode(self):
        return self.loc

    @cache.cached_property
    def covariance(self):
        return F.matmul(self.scale_tril, self.scale_tril, transb=True)

    @cache.cached_property
    def variance(self):
        return F.sum(F.square(self.scale_tril), axis=-1)

    @cache.cached_property
    def entropy(self):
        return self._logdet_scale + 0.5 * self.d * (1 + _LOG_2PI)

    def log_prob(self, x):
        z = _solve_vectors(self.scale_tril, x - self.loc)
        return -0.5 * F.sum(F.square(z), axis=-1) - self._logdet_scale - 0.5 * self.d * _LOG_2PI

    def sample_n(self, n):
        xp = self.xp
        eps = _params.standard(xp, 'standard_normal', (n,) + self.loc.shape + (1,),
                               self.loc.dtype)
        return self.loc + F.squeeze(F.matmul(self.scale_tril, eps), -1)


@distribution.register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(dist1, dist2):
    l2 = dist2.scale_tril
    shape = dist1.scale_tril.shape
    if l2.shape != shape:
        l2 = F.broadcast_to(l2, shape)
    trace = F.sum(F.square(_solve(l2, dist1.scale_tril)), axis=(-2, -1))
    mahalanobis = F.sum(F.square(_solve_vectors(dist2.scale_tril, dist2.loc - dist1.loc)),
                        axis=-1)
    return (0.5 * (trace + mahalanobis - dist1.d)
            + dist2._logdet_scale - dist1._logdet_scale)
