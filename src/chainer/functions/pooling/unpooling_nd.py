"""Unpooling over N spatial axes: each element fills its whole window."""
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.pooling import _windows
from chainer.functions.pooling import pooling_nd
from chainer.utils import conv
from chainer.utils import conv_nd
from chainer.utils import type_check


def _check_outsize(func, in_types):
    # The output size, when given, must be one the matching pooling maps back
    # onto the input size.
    x_type = in_types[0]
    if func.outs is None:
        return
    expected = tuple(conv.get_conv_outsize(o, k, s, p, func.cover_all)
                     for o, k, s, p in zip(func.outs, func.ksize, func.stride, func.pad))
    type_check.expect(x_type.shape[2:] == expected)


def _unpool(func, x):
    func._in_dims = x.shape[2:]
    outs = func.outs
    if outs is None:
        outs = tuple(conv.get_deconv_outsize(d, k, s, p, func.cover_all)
                     for d, k, s, p in zip(func._in_dims, func.ksize, func.stride, func.pad))
    func._outs = outs
    return _windows.spread(x, func.ksize, func.stride, func.pad, outs)


def _unpool_grad(func, gy):
    return _windows.window_sum(gy, func.ksize, func.stride, func.pad, func._in_dims)


class UnpoolingND(pooling_nd._PoolingND):
    """Unpooling over ``ndim`` spatial axes (the adjoint of sum pooling)."""

    def __init__(self, ndim, ksize, stride=None, pad=0, outsize=None, cover_all=True):
        super().__init__(ndim, ksize, stride, pad, cover_all)
        self.outs = None if outsize is None else conv_nd.as_tuple(outsize, ndim)

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        _check_outsize(self, in_types)

    def forward(self, inputs):
        y = _unpool(self, inputs[0])
        self.outs = self._outs      # Chainer's attribute holds the output size once known
        return y,

    def backward(self, indexes, grad_outputs):
        return UnpoolingNDGrad(self).apply(grad_outputs)


class UnpoolingNDGrad(function_node.FunctionNode):
    """Sums the gradient over each window (linear in the gradient)."""

    def __init__(self, unpoolingnd):
        self.func = unpoolingnd

    def forward(self, inputs):
        return _unpool_grad(self.func, inputs[0]),

    def backward(self, indexes, grad_outputs):
        f = self.func
        return UnpoolingND(f.ndim, f.ksize, f.stride, f.pad, f._outs,
                           f.cover_all).apply(grad_outputs)


def unpooling_nd(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Inverse operation of N-dimensional spatial pooling.

    Each input element is copied to every output position of its window;
    where windows overlap, the copies add up. This is the adjoint of summing
    over windows, and a left inverse of max pooling when windows do not overlap.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size.
        stride (int, tuple of ints or None): Window stride; ``None`` means ``ksize``.
        pad (int or tuple of ints): Padding the matching pooling used.
        outsize (None or tuple of ints): Output spatial size; by default
            :func:`~chainer.utils.conv.get_deconv_outsize` of each axis.
        cover_all (bool): Whether the matching pooling used ``cover_all``.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c, o_1, ..., o_N)``.

    .. admonition:: Example

        >>> x = np.array([[[1., 2.]]], np.float32)
        >>> F.unpooling_nd(x, 2, cover_all=False).array
        array([[[1., 1., 2., 2.]]], dtype=float32)
    """
    ndim = len(_checks.shape_of('unpooling_nd', 'x', x)[2:])
    return UnpoolingND(ndim, ksize, stride, pad, outsize, cover_all).apply((x,))[0]


def unpooling_1d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """1-dimensional unpooling: :func:`unpooling_nd` for inputs ``(n, c, w)``."""
    _checks.check_spatial_ndim('unpooling_1d', x, 1)
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)


def unpooling_3d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """3-dimensional unpooling: :func:`unpooling_nd` for inputs ``(n, c, d, h, w)``."""
    _checks.check_spatial_ndim('unpooling_3d', x, 3)
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)
