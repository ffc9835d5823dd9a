"""Group normalization (Wu and He, 2018)."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions.array import reshape
from chainer.functions.math import sum as _sum
from chainer.functions.normalization import batch_normalization as _bn
from chainer.functions import _checks
from chainer.utils import type_check
from chainer.functions import _static_arrays


class GroupNormalization(function_node.FunctionNode):
    """Normalizes each sample over groups of channels, then scales and shifts per channel."""

    def __init__(self, groups, eps=1e-5):
        self.groups = groups
        self.eps = eps

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 3)
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            gamma_type.ndim == 1,
            beta_type.ndim == 1,
            x_type.shape[1] == gamma_type.shape[0],
            gamma_type.dtype.kind == 'f',
            gamma_type.dtype == beta_type.dtype,
            gamma_type.shape == beta_type.shape,
        )

    def forward(self, inputs):
        x, gamma, beta = inputs
        dtype = _bn.compute_dtype(x.dtype, gamma.dtype)
        rows = x.astype(dtype, copy=False).reshape(x.shape[0] * self.groups,
                                                   _row_size(x, self.groups))
        mean, d, _, inv_std = _bn.batch_stats(rows, (1,), self.eps)
        x_hat = (d * inv_std).reshape(x.shape)
        shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
        y = x_hat * gamma.reshape(shape) + beta.reshape(shape)
        self.mean, self.inv_std = mean, inv_std
        self.retain_inputs((0, 1))
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        xp = backend.get_array_module(x)
        dtype = _bn.compute_dtype(x.dtype, gamma.dtype)
        n_rows = x.shape[0] * self.groups
        row = _row_size(x, self.groups)
        rows = reshape.reshape(x, (n_rows, row))
        gyc = _bn.as_dtype(gy, dtype)
        axes = (0,) + tuple(range(2, x.ndim))
        shape = (1, x.shape[1]) + (1,) * (x.ndim - 2)
        ret = []
        if 0 in indexes:
            g = gyc * reshape.reshape(_bn.as_dtype(gamma, dtype), shape)
            grad = _bn.BatchNormalizationGrad(self.eps, (1,), self.mean, self.inv_std)
            ones = _static_arrays.full(x.array, n_rows, dtype, 1)
            gx = grad.apply((rows, ones, reshape.reshape(g, (n_rows, row))))[0]
            ret.append(reshape.reshape(gx, x.shape))
        if 1 in indexes:
            x_hat = _XHat(self.eps, self.mean, self.inv_std).apply((rows,))[0]
            x_hat = reshape.reshape(x_hat, x.shape)
            ret.append(_bn.as_dtype(_sum.sum(gyc * x_hat, axis=axes), gamma.dtype))
        if 2 in indexes:
            ret.append(_bn.as_dtype(_sum.sum(gyc, axis=axes), gamma.dtype))
        return tuple(ret)


def _row_size(x, groups):
    # Elements per (example, group); spelled out so that an empty batch reshapes too.
    return int(numpy.prod(x.shape[1:])) // groups


class _XHat(function_node.FunctionNode):
    """``(x - mean) * inv_std`` along the rows of a matrix, in the compute dtype.

    ``mean`` and ``inv_std`` (column vectors) are the statistics of ``x``,
    computed by the caller; the backward accounts for their dependence on x.
    """

    def __init__(self, eps, mean, inv_std):
        self.eps = eps
        self.mean = mean
        self.inv_std = inv_std

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        dtype = self.mean.dtype
        return (x.astype(dtype, copy=False) - self.mean) * self.inv_std,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        g, = grad_outputs
        ones = _static_arrays.full(x.array, x.shape[0], self.mean.dtype, 1)
        grad = _bn.BatchNormalizationGrad(self.eps, (1,), self.mean, self.inv_std)
        return grad.apply((x, ones, g))[:1]


def positive_groups(groups, func):
    """Returns ``groups`` as an int; TypeError unless it is one, ValueError unless positive."""
    if not _checks.is_int(groups):
        raise TypeError(f'{func}: groups must be an int, got {type(groups).__name__} {groups!r}')
    if groups < 1:
        raise ValueError(f'{func}: groups must be positive, got {groups}')
    return int(groups)


def _check_groups(x, groups, func):
    positive_groups(groups, func)
    shape = getattr(x, 'shape', None)   # (not an array: apply says so, as in Chainer)
    if shape is not None and len(shape) >= 2 and shape[1] % groups:
        raise ValueError(f'{func}: the number of channels {x.shape[1]} of x (shape {x.shape}) '
                         f'is not divisible by groups={groups}')


def group_normalization(x, groups, gamma, beta, eps=1e-5):
    """Group normalization: normalizes each sample over groups of channels.

    The channels (axis 1) of each sample are split into ``groups`` groups;
    each group is normalized by its own mean and variance (over its channels
    and all the axes after them), then scaled and shifted per channel:

    .. math::
        y = \\gamma_c \\frac{x - \\mu_{n,g}}{\\sqrt{\\sigma_{n,g}^2 + \\epsilon}} + \\beta_c

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float) of shape
            ``(N, C, ...)``.
        groups (int): Number of groups; it must divide ``C``.
        gamma (~chainer.Variable or N-dimensional array): Scale, of shape ``(C,)``.
        beta (~chainer.Variable or N-dimensional array): Shift, of shape ``(C,)``.
        eps (float): Added to the variances for stability.

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[0., 2., 10., 30.]], np.float32)
        >>> one, zero = np.ones(4, np.float32), np.zeros(4, np.float32)
        >>> F.group_normalization(x, 2, one, zero, eps=0).array
        array([[-1.,  1., -1.,  1.]], dtype=float32)
    """
    _check_groups(x, groups, 'group_normalization')
    return GroupNormalization(groups, eps).apply((x, gamma, beta))[0]
