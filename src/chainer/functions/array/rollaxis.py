"""Roll an axis of a variable backwards to a given position."""
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


class Rollaxis(function_node.FunctionNode):
    """Moves axis ``axis`` so that it lies before axis ``start``."""

    def __init__(self, axis, start):
        self.axis = _checks.axis_arg('rollaxis', axis, bool_ok=True)
        self.start = _checks.axis_arg('rollaxis', start, 'start', bool_ok=True)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        _checks.expect_axis(x_type, self.axis, func='rollaxis', neg='gt')
        # start counts positions between axes, so it may equal ndim.
        _checks.expect_axis(x_type, self.start, 1, func='rollaxis', name='start',
                            low_extra=0, neg='gt')

    def forward(self, inputs):
        x, = inputs
        ndim = x.ndim
        axis = self.axis % ndim
        start = self.start + ndim if self.start < 0 else self.start
        order = [i for i in range(ndim) if i != axis]
        order.insert(start - 1 if axis < start else start, axis)
        self._axes = tuple(order)
        return x.transpose(self._axes),

    def backward(self, indexes, grad_outputs):
        from chainer.functions.array import transpose as _transpose

        inverse = [0] * len(self._axes)
        for i, a in enumerate(self._axes):
            inverse[a] = i
        return _transpose.transpose(grad_outputs[0], tuple(inverse)),


def rollaxis(x, axis, start=0):
    """Rolls an axis backwards until it lies before a given position.

    This is :func:`numpy.rollaxis` for variables; :func:`moveaxis` is usually
    clearer.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        axis (int): The axis to move.
        start (int): The axis is placed before the axis now at this position
            (``x.ndim`` puts it last).

    Returns:
        ~chainer.Variable: A view of ``x`` with the axes rolled.

    .. admonition:: Example

        >>> x = np.zeros((2, 3, 4), np.float32)
        >>> F.rollaxis(x, 2).shape
        (4, 2, 3)
        >>> F.rollaxis(x, 0, 3).shape
        (3, 4, 2)
    """
    return Rollaxis(axis, start).apply((x,))[0]
