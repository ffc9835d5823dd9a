"""Rearrange channel blocks into spatial blocks (sub-pixel upscaling)."""
from chainer import function_node
from chainer.utils import type_check


def _check_r(r):
    if not isinstance(r, int) or isinstance(r, bool):
        raise TypeError(f'r must be int, got {type(r).__name__}')
    if r < 1:
        raise ValueError(f'r must be positive, got {r}')


class Depth2Space(function_node.FunctionNode):
    """Moves ``r * r`` channel blocks into ``r x r`` spatial blocks."""

    def __init__(self, r):
        _check_r(r)
        self.r = r

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        type_check.expect(x_type.shape[1] % (self.r * self.r) == 0)

    def forward(self, inputs):
        x, = inputs
        r = self.r
        n, c, h, w = x.shape
        # Channel index (i * r + j) * c_out + k goes to pixel (h * r + i, w * r + j)
        # of output channel k.
        y = x.reshape(n, r, r, c // (r * r), h, w).transpose(0, 3, 4, 1, 5, 2)
        return y.reshape(n, c // (r * r), h * r, w * r),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array import space2depth as _space2depth

        return _space2depth.Space2Depth(self.r).apply(grad_outputs)


def depth2space(X, r):
    """Rearranges depth (channel) blocks into spatial blocks.

    Used for sub-pixel convolution upscaling (`Shi et al., 2016
    <https://arxiv.org/abs/1609.05158>`_); :func:`space2depth` is its inverse.
    Input channel ``(i * r + j) * c + k`` becomes, in output channel ``k``, the
    pixel at offset ``(i, j)`` of each ``r x r`` block.

    Args:
        X (~chainer.Variable or N-dimensional array): Float input of shape
            ``(batch, c * r * r, height, width)``.
        r (int): Side of the ``r x r`` blocks that channels are spread into.

    Returns:
        ~chainer.Variable: Output of shape ``(batch, c, height * r, width * r)``.

    .. admonition:: Example

        >>> X = np.arange(8, dtype=np.float32).reshape(1, 4, 1, 2)
        >>> F.depth2space(X, 2).array
        array([[[[0., 2., 1., 3.],
                 [4., 6., 5., 7.]]]], dtype=float32)
    """
    return Depth2Space(r).apply((X,))[0]
