"""Means: ``average`` (optionally weighted) and its alias ``mean``."""
import math

import numpy

import chainer
from chainer import backend
from chainer.functions import _checks
from chainer.functions.math import sum as _sum
from chainer.utils import type_check


class Mean(_sum._Reduction):
    """Unweighted mean over the given axes (one node, as in Chainer's graphs)."""

    _func = 'mean'

    def __init__(self, axis, keepdims):     # (both required, as in Chainer)
        super().__init__(axis, keepdims)

    def _scale(self, shape):
        if self.axis is None:
            count = math.prod(shape)
        else:
            count = math.prod(shape[a] for a in self.axis)
        # Zero elements give nan, as numpy.mean does (without its warning).
        return 1.0 / count if count else float('nan')

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        # float16 accumulates in float32, as in Sum.
        acc = numpy.dtype(numpy.float32 if x.dtype == numpy.float16 else x.dtype)
        y = x.sum(axis=self.axis, keepdims=self.keepdims, dtype=acc)
        y = y * acc.type(self._scale(x.shape))
        return xp.asarray(y).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        shape = self._in_shape
        gy = _sum._expand_reduced(grad_outputs[0], shape, self.axis, self.keepdims)
        gy = gy * gy.dtype.type(self._scale(shape))
        return chainer.functions.broadcast_to(gy, shape),


def average(x, axis=None, weights=None, keepdims=False):
    """Weighted average of array elements over the given axes.

    .. math:: y = \\frac{\\sum_i w_i x_i}{\\sum_i w_i}

    Args:
        x (~chainer.Variable or N-dimensional array): Elements to average
            (float).
        axis (None, int or tuple of int): Axes to average over; ``None``
            averages all elements.
        weights (None, ~chainer.Variable or N-dimensional array): Weight of
            each element; ``None`` weights all elements equally. With
            ``axis=None`` it must have the shape of ``x``; with an int
            ``axis`` it must be 1-D of length ``x.shape[axis]``.
        keepdims (bool): Keep the reduced axes with length one.

    Returns:
        ~chainer.Variable: The average.

    .. admonition:: Example

        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.average(x, axis=0).array
        array([2., 3.], dtype=float32)
        >>> F.average(x, axis=1, weights=np.array([3, 1], np.float32)).array
        array([1.25, 3.25], dtype=float32)
    """
    return _average(x, axis, weights, keepdims, 'average')


def _average(x, axis, weights, keepdims, func):
    F = chainer.functions
    norm_axis = _sum._normalize_axis(axis, func)
    if weights is None:
        return Mean(axis, keepdims).apply((x,))[0]

    if not isinstance(weights, chainer.Variable) and not chainer.variable._is_array(weights):
        raise TypeError(f'{func}: weights must be None, a Variable or an array, '
                        f'got {type(weights).__name__}')
    if norm_axis is not None and len(norm_axis) > 1:
        raise ValueError(
            f'{func}: with weights, axis must be None or a single int, got {axis}')
    # Shape mismatches raise InvalidType, as Chainer's (from the reshape it did).
    if norm_axis is None:
        if weights.shape != x.shape:
            raise type_check.InvalidType(
                'weights.shape == x.shape', f'{weights.shape} != {x.shape}',
                f'{func}: with axis=None, weights must have the shape of x, got '
                f'weights.shape={weights.shape} and x.shape={x.shape}')
        w = weights
    else:
        a = norm_axis[0]
        _checks.expect_axis(x, a, func=func, neg='gt')   # arrays and Variables have ndim/shape
        a %= x.ndim
        if weights.ndim != 1 or weights.shape[0] != x.shape[a]:
            raise type_check.InvalidType(
                'weights.shape == (x.shape[axis],)', f'{weights.shape} != ({x.shape[a]},)',
                f'{func}: with axis={axis}, weights must have shape (x.shape[{a}],) = '
                f'({x.shape[a]},), got {weights.shape} (x.shape={x.shape})')
        w_shape = tuple(n if i == a else 1 for i, n in enumerate(x.shape))
        w = F.broadcast_to(F.reshape(weights, w_shape), x.shape)
    total = F.sum(x * w, axis, keepdims)
    divider = F.sum(weights)
    return total / F.broadcast_to(divider, total.shape)


def mean(x, axis=None, weights=None, keepdims=False):
    """Arithmetic mean of array elements over the given axes.

    This is :func:`average` under NumPy's name; see there for ``weights``.

    Args:
        x (~chainer.Variable or N-dimensional array): Elements to average
            (float).
        axis (None, int or tuple of int): Axes to average over; ``None``
            averages all elements.
        weights (None, ~chainer.Variable or N-dimensional array): Optional
            weights, as in :func:`average`.
        keepdims (bool): Keep the reduced axes with length one.

    Returns:
        ~chainer.Variable: The mean.

    .. admonition:: Example

        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.mean(x, axis=1, keepdims=True).array
        array([[1.5],
               [3.5]], dtype=float32)
    """
    if isinstance(weights, bool):
        # ``mean(x, axis, keepdims)`` written positionally, NumPy style: a bool
        # is never a weight array.
        weights, keepdims = None, weights
    return _average(x, axis, weights, keepdims, 'mean')
