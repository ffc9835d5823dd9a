"""Reverse a variable upside down (along its first axis)."""
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class FlipUD(function_node.FunctionNode):
    """Reverses the elements along axis 0."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        type_check.expect(in_types[0].dtype.kind == 'f', in_types[0].ndim >= 1)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.flipud(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return FlipUD().apply(grad_outputs)


def flipud(a):
    """Reverses the order of rows (elements along axis 0) of a variable.

    Args:
        a (~chainer.Variable or N-dimensional array): Input with at least one
            dimension.

    Returns:
        ~chainer.Variable: A view of ``a`` flipped upside down.

    .. admonition:: Example

        >>> a = np.arange(4, dtype=np.float32).reshape(2, 2)
        >>> F.flipud(a).array
        array([[2., 3.],
               [0., 1.]], dtype=float32)
    """
    return FlipUD().apply((a,))[0]
