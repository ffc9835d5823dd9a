"""Reverse a variable left to right (along its second axis)."""
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class FlipLR(function_node.FunctionNode):
    """Reverses the elements along axis 1."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        type_check.expect(in_types[0].dtype.kind == 'f', in_types[0].ndim >= 2)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.fliplr(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return FlipLR().apply(grad_outputs)


def fliplr(a):
    """Reverses the order of columns (elements along axis 1) of a variable.

    Args:
        a (~chainer.Variable or N-dimensional array): Input with at least two
            dimensions.

    Returns:
        ~chainer.Variable: A view of ``a`` flipped left to right.

    .. admonition:: Example

        >>> a = np.arange(4, dtype=np.float32).reshape(2, 2)
        >>> F.fliplr(a).array
        array([[1., 0.],
               [3., 2.]], dtype=float32)
    """
    return FlipLR().apply((a,))[0]
