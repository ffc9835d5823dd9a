"""Remove axes of length one."""
import chainer
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


def _normalize_axis(axis):
    axis = _checks.axis_arg('squeeze', axis, none=True, tuple_=True)
    return (axis,) if isinstance(axis, int) else axis


class Squeeze(function_node.FunctionNode):
    """Removes the given axes of length one (all of them when ``axis`` is None)."""

    def __init__(self, axis=None):
        self.axis = _normalize_axis(axis)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        if self.axis is not None:
            for axis in self.axis:
                _checks.expect_axis(x_type, axis, func='squeeze', xname='in_types[0]',
                                    neg='minus')
            shape = _checks._value(x_type.shape)
            for axis in self.axis:
                if shape[axis] != 1:
                    # ValueError, as NumPy (and so Chainer) raises.
                    raise ValueError(
                        f'squeeze: axis {axis} of x has size {shape[axis]}, but only axes of '
                        f'size 1 can be removed (x.shape={shape})')

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        if self.axis is None:
            shape = tuple(n for n in x.shape if n != 1)
        else:
            drop = {a % x.ndim for a in self.axis}
            shape = tuple(n for i, n in enumerate(x.shape) if i not in drop)
        return x.reshape(shape),

    def backward(self, indexes, grad_outputs):
        return chainer.functions.reshape(grad_outputs[0], self._in_shape),


def squeeze(x, axis=None):
    """Removes axes of length one from a variable's shape.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        axis (None, int or tuple of int): Axes to remove; each must have
            length one. ``None`` removes every axis of length one.

    Returns:
        ~chainer.Variable: A view of ``x`` without those axes.

    .. admonition:: Example

        >>> x = np.zeros((1, 2, 1, 3), np.float32)
        >>> F.squeeze(x).shape
        (2, 3)
        >>> F.squeeze(x, axis=(0, 2)).shape
        (2, 3)
        >>> F.squeeze(x, axis=-2).shape
        (1, 2, 3)
    """
    _checks.refuse_none('squeeze', 'x', x)
    return Squeeze(axis).apply((x,))[0]
