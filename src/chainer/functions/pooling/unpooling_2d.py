"""Spatial (2-D) unpooling."""
from chainer import function_node
from chainer.functions.pooling import pooling_2d
from chainer.functions.pooling import unpooling_nd
from chainer.utils import conv_nd


class Unpooling2D(pooling_2d.Pooling2D):
    """Unpooling over the two spatial axes of ``(n, c, h, w)`` images."""

    def __init__(self, ksize, stride=None, pad=0, outsize=None, cover_all=True):
        super().__init__(ksize, stride, pad, cover_all)
        self.outh, self.outw = (None, None) if outsize is None else conv_nd.as_tuple(outsize, 2)

    @property
    def outs(self):
        return None if self.outh is None else (self.outh, self.outw)

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        unpooling_nd._check_outsize(self, in_types)

    def forward(self, inputs):
        y = unpooling_nd._unpool(self, inputs[0])
        self.outh, self.outw = self._outs   # Chainer's attributes, once known
        return y,

    def backward(self, indexes, grad_outputs):
        return Unpooling2DGrad(self).apply(grad_outputs)


class Unpooling2DGrad(function_node.FunctionNode):
    """Sums the gradient over each window."""

    def __init__(self, unpooling2d):
        self.func = unpooling2d

    def forward(self, inputs):
        return unpooling_nd._unpool_grad(self.func, inputs[0]),

    def backward(self, indexes, grad_outputs):
        f = self.func
        return Unpooling2D(f.ksize, f.stride, f.pad, f._outs, f.cover_all).apply(grad_outputs)


def unpooling_2d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Inverse operation of spatial pooling for images ``(n, c, h, w)``.

    Each pixel is copied to every position of its ``kh x kw`` window (copies
    add up where windows overlap); see :func:`unpooling_nd`.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size.
        stride (int, pair of ints or None): Window stride; ``None`` means ``ksize``.
        pad (int or pair of ints): Padding the matching pooling used.
        outsize (None or pair of ints): Output size ``(out_h, out_w)``; by
            default :func:`~chainer.utils.conv.get_deconv_outsize` per axis.
        cover_all (bool): Whether the matching pooling used ``cover_all``.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.array([[[[1., 2.]]]], np.float32)
        >>> F.unpooling_2d(x, 2, cover_all=False).array
        array([[[[1., 1., 2., 2.],
                 [1., 1., 2., 2.]]]], dtype=float32)
    """
    return Unpooling2D(ksize, stride, pad, outsize, cover_all).apply((x,))[0]
