"""Sums: ``sum`` over axes and ``sum_to`` a broadcast-compatible shape."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class Sum(function_node.FunctionNode):
    """Sum of array elements over the given axes."""

    keepdims = False

    def __init__(self, axis=None, keepdims=False):
        if axis is None:
            self.axis = None
        elif isinstance(axis, int):
            self.axis = (axis,)
        elif isinstance(axis, tuple) and all(isinstance(a, int) for a in axis):
            if len(set(axis)) != len(axis):
                raise ValueError('duplicate value in axis: ({})'.format(
                    ', '.join(map(str, axis))))
            self.axis = axis
        else:
            raise TypeError('None, int or tuple of int are required')
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.axis is not None:
            for axis in self.axis:
                if axis >= 0:
                    type_check.expect(axis < x_type.ndim)
                else:
                    type_check.expect(-axis - 1 < x_type.ndim)

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        return xp.asarray(x.sum(axis=self.axis, keepdims=self.keepdims)),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        shape = self._in_shape
        ndim = len(shape)
        if not (ndim == 0 or self.axis is None or self.keepdims):
            axes = sorted(a % ndim for a in self.axis)
            new_shape = list(gy.shape)
            for a in axes:
                new_shape.insert(a, 1)
            gy = chainer.functions.reshape(gy, tuple(new_shape))
        elif self.axis is None and not self.keepdims and ndim:
            gy = chainer.functions.reshape(gy, (1,) * ndim)
        return chainer.functions.broadcast_to(gy, shape),


def sum(x, axis=None, keepdims=False):
    """Sum of array elements over the given axes.

    Args:
        x (~chainer.Variable or N-dimensional array): Elements to sum.
        axis (None, int or tuple of int): Axes to sum over; ``None`` sums all.
        keepdims (bool): Keep the reduced axes with length one.

    Returns:
        ~chainer.Variable: The sum.

    .. admonition:: Example

        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.sum(x, axis=1).array
        array([ 3., 12.], dtype=float32)
    """
    return Sum(axis, keepdims).apply((x,))[0]


def _sum_to_array(x, shape):
    """Sums an array down to ``shape`` following broadcasting rules."""
    ndim = len(shape)
    lead = x.ndim - ndim
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(shape) if s == 1 and x.shape[i + lead] != 1)
    if axes:
        x = x.sum(axis=axes, keepdims=True)
    if lead:
        x = x.reshape(shape)
    return x


class SumTo(function_node.FunctionNode):
    """Sums elements so that the result has the given shape."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        ndim = len(self._shape)
        type_check.expect(x_type.ndim >= ndim)
        for i in range(1, ndim + 1):
            s = self._shape[-i]
            if s != 1:
                type_check.expect(x_type.shape[-i] == s)

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        return xp.asarray(_sum_to_array(x, self._shape)),

    def backward(self, indexes, grad_outputs):
        return chainer.functions.broadcast_to(grad_outputs[0], self._in_shape),


def sum_to(x, shape):
    """Sums elements so that the result has shape ``shape``.

    This undoes a broadcast: leading axes are summed away and axes of length
    one in ``shape`` are summed with ``keepdims``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        shape (tuple of int): Target shape (``x`` must broadcast from it).

    Returns:
        ~chainer.Variable: Output of shape ``shape``.
    """
    if x.shape == tuple(shape):
        return chainer.as_variable(x)
    return SumTo(shape).apply((x,))[0]
