"""Average pooling over N spatial axes (and its 1-D and 3-D forms)."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.pooling import _windows
from chainer.functions.pooling import pooling_nd


def _average(func, name, x, pad_value):
    # Shared by AveragePooling2D and AveragePoolingND: window sums over the
    # divisor, which is the window size (padding counts as zeros) or, for
    # pad_value None, the number of input elements in each window.
    func._in_dims = x.shape[2:]
    outs = _windows.out_sizes(name, func._in_dims, func.ksize, func.stride, func.pad,
                              func.cover_all)
    dtype = x.dtype
    if dtype == numpy.float16:
        x = x.astype(numpy.float32)     # sums of float16 lose digits quickly
    y = _windows.window_sum(x, func.ksize, func.stride, func.pad, outs)
    if pad_value is None:
        xp = backend.get_array_module(x)
        ones = xp.ones((1, 1) + func._in_dims, dtype=x.dtype)
        func._divisor = _windows.window_sum(ones, func.ksize, func.stride, func.pad, outs)
        y /= func._divisor
    else:
        func._divisor = int(numpy.prod(func.ksize))
        y *= 1 / func._divisor
    return y.astype(dtype, copy=False)


def _average_grad(func, gy):
    divisor = func._divisor
    if not isinstance(divisor, int):
        divisor = divisor.astype(gy.dtype, copy=False)
    return _windows.spread(gy / divisor, func.ksize, func.stride, func.pad, func._in_dims)


class AveragePoolingND(pooling_nd._PoolingND):
    """Average pooling over ``ndim`` spatial axes."""

    _refuse_empty = True

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=False, pad_value=0):
        if pad_value is not None and pad_value != 0:
            raise ValueError(
                f'average_pooling_nd: pad_value must be 0 or None, got {pad_value!r}')
        super().__init__(ndim, ksize, stride, pad, cover_all)
        self.pad_value = pad_value

    def forward(self, inputs):
        return _average(self, f'average_pooling_{self.ndim}d', inputs[0], self.pad_value),

    def backward(self, indexes, grad_outputs):
        return AveragePoolingNDGrad(self).apply(grad_outputs)


class AveragePoolingNDGrad(function_node.FunctionNode):
    """Spreads each output gradient evenly over its window (linear in the gradient)."""

    def __init__(self, apoolnd):
        self.func = apoolnd

    def forward(self, inputs):
        return _average_grad(self.func, inputs[0]),

    def backward(self, indexes, grad_outputs):
        f = self.func
        # The adjoint of spreading g / divisor is window sums over the same divisor.
        return AveragePoolingND(f.ndim, f.ksize, f.stride, f.pad, f.cover_all,
                                f.pad_value).apply(grad_outputs)


def average_pooling_nd(x, ksize, stride=None, pad=0, pad_value=0):
    """N-dimensionally spatial average pooling.

    Each output element is the mean of a window of ``x``.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size; an int applies to every axis.
        stride (int, tuple of ints or None): Window stride; ``None`` means ``ksize``.
        pad (int or tuple of ints): Padding on each side of each axis.
        pad_value (0 or None): ``0`` counts padded elements as zeros (the mean
            always divides by the window size); ``None`` leaves them out (the
            mean divides by the number of input elements in the window).

    Returns:
        ~chainer.Variable: Output of shape ``(n, c, o_1, ..., o_N)``.

    .. admonition:: Example

        >>> x = np.ones((1, 1, 3, 3), np.float32)
        >>> F.average_pooling_nd(x, 3, 2, 1, pad_value=None).array
        array([[[[1., 1.],
                 [1., 1.]]]], dtype=float32)
    """
    ndim = len(_checks.shape_of('average_pooling_nd', 'x', x)[2:])
    return AveragePoolingND(ndim, ksize, stride, pad, pad_value=pad_value).apply((x,))[0]


def average_pooling_1d(x, ksize, stride=None, pad=0, pad_value=0):
    """1-dimensional average pooling: :func:`average_pooling_nd` for inputs ``(n, c, w)``."""
    _checks.check_spatial_ndim('average_pooling_1d', x, 1)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)


def average_pooling_3d(x, ksize, stride=None, pad=0, pad_value=0):
    """3-dimensional average pooling: :func:`average_pooling_nd` for ``(n, c, d, h, w)``."""
    _checks.check_spatial_ndim('average_pooling_3d', x, 3)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)
