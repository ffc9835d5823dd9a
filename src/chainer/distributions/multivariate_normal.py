"""The multivariate normal distribution."""
import importlib.util
import math

from chainer import backend
from chainer import distribution
from chainer import function_node
from chainer import functions as F
from chainer.distributions import _params
from chainer.functions.math import inv as _inv
from chainer.utils import cache
from chainer.utils import type_check

# the density's log constant and the entropy's constant, per dimension (Chainer's names)
LOGPROBC = -0.5 * math.log(2 * math.pi)
ENTROPYC = 0.5 * math.log(2 * math.pi * math.e)
# Whether the CPU path can run (it needs SciPy, imported on first use).
available_cpu = importlib.util.find_spec('scipy') is not None

_LOG_2PI = math.log(2 * math.pi)


class TriangularInv(function_node.FunctionNode):
    """Inverse of the lower (or upper) triangle of square matrices.

    Only the chosen triangle of the input is read, and only it receives a
    gradient. Leading axes, if any, index a batch of matrices.

    Args:
        lower (bool): Whether to invert the lower triangle (``True``) or the upper one.
    """

    def __init__(self, lower):
        self.lower = lower

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            x_type.shape[-1] == x_type.shape[-2],
        )

    def _triangle(self, xp, a):
        return xp.tril(a) if self.lower else xp.triu(a)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        return _inv._inverse(self._triangle(xp, x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        xp = backend.get_array_module(y.array)
        mask = self._triangle(xp, xp.ones(y.shape[-2:], y.dtype))
        return _inv._inverse_grad(y, grad_outputs[0]) * mask,


def _triangular_inv(x, lower=True):
    """Inverts the lower (or upper) triangle of a square matrix; see :class:`TriangularInv`."""
    return TriangularInv(lower).apply((x,))[0]


def _batch_triangular_inv(x, lower=True):
    """Inverts the triangles of a batch of square matrices of shape ``(..., d, d)``."""
    return _triangular_inv(x, lower)


def _triangular_logdet(x):
    """``log |det x|`` of (a batch of) triangular matrices: the sum of ``log |diagonal|``."""
    return F.sum(F.log(F.absolute(F.diagonal(x, 0, -2, -1))), axis=-1)


def _solve_vectors(scale_tril, v):
    # L^{-1} v for vectors v of shape (..., d), with L of shape batch + (d, d).
    inv = _triangular_inv(scale_tril)
    return F.squeeze(F.matmul(inv, F.expand_dims(v, -1)), -1)


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
        return _triangular_logdet(self.scale_tril)

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
    inv2 = _triangular_inv(dist2.scale_tril)
    trace = F.sum(F.square(F.matmul(inv2, dist1.scale_tril)), axis=(-2, -1))
    mahalanobis = F.sum(F.square(_solve_vectors(dist2.scale_tril, dist2.loc - dist1.loc)),
                        axis=-1)
    return (0.5 * (trace + mahalanobis - dist1.d)
            + dist2._logdet_scale - dist1._logdet_scale)
