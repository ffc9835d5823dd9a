"""Reverse the order of elements along an axis."""
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


def _flip(array, axis):
    """Returns a view of ``array`` reversed along ``axis`` (NumPy or CuPy)."""
    index = [slice(None)] * array.ndim
    index[axis] = slice(None, None, -1)
    return array[tuple(index)]


class Flip(function_node.FunctionNode):
    """Reverses the elements along one axis."""

    def __init__(self, axis):
        self.axis = _checks.axis_arg('flip', axis, bool_ok=True)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.ndim > 0)
        _checks.expect_axis(x_type, self.axis, func='flip')

    def forward(self, inputs):
        return _flip(inputs[0], self.axis),

    def backward(self, indexes, grad_outputs):
        return Flip(self.axis).apply(grad_outputs)


def flip(x, axis):
    """Reverses the order of elements of a variable along an axis.

    Args:
        x (~chainer.Variable or N-dimensional array): Input with at least one
            dimension.
        axis (int): The axis to reverse.

    Returns:
        ~chainer.Variable: A view of ``x`` with the order reversed.

    .. admonition:: Example

        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.flip(x, 1).array
        array([[2., 1., 0.],
               [5., 4., 3.]], dtype=float32)
    """
    return Flip(axis).apply((x,))[0]
