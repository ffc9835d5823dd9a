"""Swap two axes of a variable."""
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


class Swapaxes(function_node.FunctionNode):
    """Interchanges two axes."""

    def __init__(self, axis1, axis2):
        self.axis1 = _checks.axis_arg('swapaxes', axis1, 'axis1', bool_ok=True)
        self.axis2 = _checks.axis_arg('swapaxes', axis2, 'axis2', bool_ok=True)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        # NumPy's AxisError, as Chainer (which left this check to NumPy) raised.
        for name, axis in (('axis1', self.axis1), ('axis2', self.axis2)):
            _checks.expect_axis(x_type, axis, func='swapaxes', name=name,
                                error=_checks.AxisError)

    def forward(self, inputs):
        x, = inputs
        return x.swapaxes(self.axis1, self.axis2),

    def backward(self, indexes, grad_outputs):
        return Swapaxes(self.axis1, self.axis2).apply(grad_outputs)


def swapaxes(x, axis1, axis2):
    """Interchanges two axes of a variable.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        axis1 (int): First axis.
        axis2 (int): Second axis.

    Returns:
        ~chainer.Variable: A view of ``x`` with the two axes swapped.

    .. admonition:: Example

        >>> x = np.zeros((2, 3, 4), np.float32)
        >>> F.swapaxes(x, 0, 2).shape
        (4, 3, 2)
    """
    return Swapaxes(axis1, axis2).apply((x,))[0]
