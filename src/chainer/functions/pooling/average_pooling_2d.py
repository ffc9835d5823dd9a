"""Spatial (2-D) average pooling."""
from chainer import function_node
from chainer.functions.pooling import average_pooling_nd
from chainer.functions.pooling import pooling_2d


class AveragePooling2D(pooling_2d.Pooling2D):
    """Average pooling over the two spatial axes of ``(n, c, h, w)`` images."""

    def forward(self, inputs):
        return average_pooling_nd._average(self, 'average_pooling_2d', inputs[0], 0),

    def backward(self, indexes, grad_outputs):
        return AveragePooling2DGrad(self).apply(grad_outputs)


class AveragePooling2DGrad(function_node.FunctionNode):
    """Spreads each output gradient evenly over its window."""

    def __init__(self, apool2d):
        self.func = apool2d

    def forward(self, inputs):
        return average_pooling_nd._average_grad(self.func, inputs[0]),

    def backward(self, indexes, grad_outputs):
        f = self.func
        return AveragePooling2D(f.ksize, f.stride, f.pad, f.cover_all).apply(grad_outputs)


def average_pooling_2d(x, ksize, stride=None, pad=0):
    """Spatial average pooling.

    Each output element is the mean of a ``kh x kw`` window of ``x``; padded
    elements count as zeros, so the mean always divides by ``kh * kw``
    (:func:`average_pooling_nd` with ``pad_value=None`` leaves them out).

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size ``(kh, kw)``.
        stride (int, pair of ints or None): Window stride; ``None`` means ``ksize``.
        pad (int or pair of ints): Zero padding on each side.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> F.average_pooling_2d(x, 2).array
        array([[[[ 2.5,  4.5],
                 [10.5, 12.5]]]], dtype=float32)
    """
    return AveragePooling2D(ksize, stride, pad, False).apply((x,))[0]
