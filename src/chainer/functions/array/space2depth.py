"""Rearrange spatial blocks into channel blocks (inverse of depth2space)."""
from chainer import function_node
from chainer.functions.array import depth2space as _depth2space
from chainer.utils import type_check


class Space2Depth(function_node.FunctionNode):
    """Moves each ``r x r`` spatial block into ``r * r`` channels."""

    def __init__(self, r):
        _depth2space._check_r(r)
        self.r = r

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)
        type_check.expect(x_type.shape[2] % self.r == 0, x_type.shape[3] % self.r == 0)

    def forward(self, inputs):
        x, = inputs
        r = self.r
        n, c, h, w = x.shape
        y = x.reshape(n, c, h // r, r, w // r, r).transpose(0, 3, 5, 1, 2, 4)
        return y.reshape(n, c * r * r, h // r, w // r),

    def backward(self, indexes, grad_outputs):
        return _depth2space.Depth2Space(self.r).apply(grad_outputs)


def space2depth(X, r):
    """Rearranges spatial blocks into depth (channel) blocks.

    This is the inverse of :func:`depth2space`: the pixel at offset ``(i, j)``
    of each ``r x r`` block of input channel ``k`` goes to output channel
    ``(i * r + j) * c + k``.

    Args:
        X (~chainer.Variable or N-dimensional array): Float input of shape
            ``(batch, c, height * r, width * r)``.
        r (int): Side of the ``r x r`` blocks moved into channels.

    Returns:
        ~chainer.Variable: Output of shape ``(batch, c * r * r, height, width)``.

    .. admonition:: Example

        >>> X = np.arange(8, dtype=np.float32).reshape(1, 1, 2, 4)
        >>> F.space2depth(X, 2).array
        array([[[[0., 2.]],
        <BLANKLINE>
                [[1., 3.]],
        <BLANKLINE>
                [[4., 6.]],
        <BLANKLINE>
                [[5., 7.]]]], dtype=float32)
    """
    return Space2Depth(r).apply((X,))[0]
