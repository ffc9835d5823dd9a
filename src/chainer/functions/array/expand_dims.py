"""Insert an axis of length one."""
import chainer
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


class ExpandDims(function_node.FunctionNode):
    """Inserts an axis of length one at ``axis``."""

    def __init__(self, axis):
        self.axis = _checks.axis_arg('expand_dims', axis, bool_ok=True)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        # The output has ndim + 1 axes, so axis may range over [-ndim - 1, ndim].
        _checks.expect_axis(x_type, self.axis, 1, func='expand_dims')

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        axis = self.axis % (x.ndim + 1)
        return x.reshape(x.shape[:axis] + (1,) + x.shape[axis:]),

    def backward(self, indexes, grad_outputs):
        return chainer.functions.reshape(grad_outputs[0], self._in_shape),


def expand_dims(x, axis):
    """Inserts an axis of length one into a variable's shape.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        axis (int): Position of the new axis in the output, from
            ``-x.ndim - 1`` to ``x.ndim``.

    Returns:
        ~chainer.Variable: A view of ``x`` with one more dimension.

    .. admonition:: Example

        >>> x = np.array([1, 2, 3], np.float32)
        >>> F.expand_dims(x, axis=0).shape
        (1, 3)
        >>> F.expand_dims(x, axis=-1).shape
        (3, 1)
    """
    return ExpandDims(axis).apply((x,))[0]
