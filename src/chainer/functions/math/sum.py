"""Sums: ``sum`` over axes and ``sum_to`` a broadcast-compatible shape."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import array as array_utils
from chainer.utils import type_check


def _normalize_axis(axis, func):
    """Returns ``axis`` as ``None`` or a tuple of ints (Chainer's reduction rules)."""
    axis = _checks.axis_arg(func, axis, none=True, tuple_=True)
    return (axis,) if isinstance(axis, int) else axis


def _check_axis(axis, x_type, func, xname='x'):
    """States that every entry of ``axis`` names an axis of ``x_type``."""
    if axis is None:
        return
    for a in axis:
        _checks.expect_axis(x_type, a, func=func, xname=xname, neg='gt')


def _keepdims_shape(shape, axis):
    """Shape of a reduction over ``axis`` of ``shape`` with ``keepdims=True``."""
    if axis is None:
        return (1,) * len(shape)
    ndim = len(shape)
    axes = {a % ndim for a in axis}
    return tuple(1 if i in axes else s for i, s in enumerate(shape))


def _expand_reduced(gy, in_shape, axis, keepdims):
    """Reshapes a reduction's output gradient so it broadcasts against the input."""
    shape = _keepdims_shape(in_shape, axis)
    if keepdims or gy.shape == shape:
        return gy
    return chainer.functions.reshape(gy, shape)


class _Reduction(function_node.FunctionNode):
    """Base of the reductions of a float input over ``axis`` (None, an int or a tuple)."""

    keepdims = False
    _func = None    # the user-facing function, for error messages

    def __init__(self, axis=None, keepdims=False):
        self.axis = _normalize_axis(axis, self._func)
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        _check_axis(self.axis, x_type, self._func)


class Sum(_Reduction):
    """Sum of array elements over the given axes."""

    _func = 'sum'

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        if x.dtype == numpy.float16:
            # float16 additions round at every step; accumulate in float32.
            y = x.sum(axis=self.axis, keepdims=self.keepdims, dtype=numpy.float32)
            return xp.asarray(y.astype(numpy.float16)),
        return xp.asarray(x.sum(axis=self.axis, keepdims=self.keepdims)),

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        ndim = len(self._in_shape)
        # A sum over leading axes (all of them, or the batch axis of a bias gradient)
        # broadcasts back as it is: no Reshape node.
        if self.axis is not None and sorted(a % ndim for a in self.axis) != list(
                range(len(self.axis))):
            gy = _expand_reduced(gy, self._in_shape, self.axis, self.keepdims)
        return chainer.functions.broadcast_to(gy, self._in_shape),


def sum(x, axis=None, keepdims=False):
    """Sum of array elements over the given axes.

    Args:
        x (~chainer.Variable or N-dimensional array): Elements to sum (float).
        axis (None, int or tuple of int): Axes to sum over; ``None`` sums all.
        keepdims (bool): Keep the reduced axes with length one.

    Returns:
        ~chainer.Variable: The sum.

    .. admonition:: Example

        >>> x = np.array([[1., 2.], [3., 4.], [5., 6.]], np.float32)
        >>> F.sum(x, axis=0).array
        array([ 9., 12.], dtype=float32)
        >>> F.sum(x, axis=1, keepdims=True).shape
        (3, 1)
    """
    return Sum(axis, keepdims).apply((x,))[0]


class SumTo(function_node.FunctionNode):
    """Sums elements so that the result has the given shape (undoes a broadcast)."""

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
        return xp.asarray(array_utils.sum_to(x, self._shape)),

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
        ~chainer.Variable: Output of shape ``shape`` (``x`` itself, as a
        Variable, when it already has that shape).

    .. admonition:: Example

        >>> x = np.ones((2, 3), np.float32)
        >>> F.sum_to(x, (1, 3)).array
        array([[2., 2., 2.]], dtype=float32)
    """
    if _checks.shape_of('sum_to', 'x', x) == tuple(shape):
        return chainer.as_variable(x)
    return SumTo(shape).apply((x,))[0]
