"""Cumulative sum along an axis."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


class _Cumulative(function_node.FunctionNode):
    """Base of the running reductions of a float input along ``axis``.

    ``axis=None`` runs over the flattened input.
    """

    _func = None    # the user-facing function, for error messages

    def __init__(self, axis=None):
        self.axis = _checks.axis_arg(self._func, axis, none=True)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.axis is not None:
            _checks.expect_axis(x_type, self.axis, func=self._func, neg='gt')


def _reverse(x, axis):
    """A view of ``x`` reversed along ``axis``."""
    index = [slice(None)] * x.ndim
    index[axis] = slice(None, None, -1)
    return x[tuple(index)]


def _cumsum_array(x, axis, reverse):
    """Running sums of an array (from the far end when ``reverse``)."""
    xp = backend.get_array_module(x)
    dtype = numpy.float32 if x.dtype == numpy.float16 else None
    if reverse:
        y = _reverse(xp.cumsum(_reverse(x, axis), axis=axis, dtype=dtype), axis)
    else:
        y = xp.cumsum(x, axis=axis, dtype=dtype)
    return y.astype(x.dtype, copy=False)


class Cumsum(_Cumulative):
    """Cumulative sum of array elements over an axis."""

    _func = 'cumsum'

    # When set, the sum runs from the last element towards the first. The
    # gradient of a cumulative sum is the reversed cumulative sum of gy.
    _reverse = False

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        if self.axis is None:
            x = x.reshape(-1)
        return xp.asarray(_cumsum_array(x, self.axis or 0, self._reverse)),

    def backward(self, indexes, grad_outputs):
        node = Cumsum(0 if self.axis is None else self.axis)
        node._reverse = not self._reverse
        gx, = node.apply(grad_outputs)
        if self.axis is None:
            gx = gx.reshape(self._in_shape)
        return gx,


def cumsum(x, axis=None):
    """Cumulative sum of array elements over an axis.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        axis (int or None): Axis along which to accumulate. With ``None`` the
            input is flattened first.

    Returns:
        ~chainer.Variable: Running sums, of the shape of ``x`` (1-D when
        ``axis`` is ``None``).

    .. admonition:: Example

        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.cumsum(x, axis=1).array
        array([[ 1.,  3.,  6.],
               [ 4.,  9., 15.]], dtype=float32)
        >>> F.cumsum(x).array
        array([ 1.,  3.,  6., 10., 15., 21.], dtype=float32)
    """
    return Cumsum(axis).apply((x,))[0]
