"""Separate an array into its slices along one axis (the inverse of ``stack``)."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check
from chainer.functions import _static_arrays


class Separate(function_node.FunctionNode):
    """Returns ``x[..., i, ...]`` (index on ``axis``) for every ``i`` as separate outputs."""

    def __init__(self, axis):
        self.axis = _checks.axis_arg('separate', axis)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        _checks.expect_axis(x_type, self.axis, func='separate')

    def forward(self, inputs):
        x, = inputs
        axis = self.axis % x.ndim
        self._axis = axis
        self._dtype = x.dtype
        self._shape = x.shape[:axis] + x.shape[axis + 1:]
        # Moving the axis to the front makes each slice one cheap view.
        xs = backend.get_array_module(x).moveaxis(x, axis, 0)
        return tuple(xs)

    def backward(self, indexes, grad_outputs):
        like = next(g for g in grad_outputs if g is not None).array
        # Slices that got no gradient contribute zeros.
        gys = [_static_arrays.full(like, self._shape, self._dtype, 0) if g is None else g
               for g in grad_outputs]
        return chainer.functions.stack(gys, self._axis),


def separate(x, axis=0):
    """Separates an array into its slices along an axis.

    For an input of shape ``(2, 3, 4)`` and ``axis=1`` this returns three
    arrays of shape ``(2, 4)``. It is the inverse of
    :func:`~chainer.functions.stack`.

    Args:
        x (~chainer.Variable or N-dimensional array): Array to separate.
        axis (int): Axis along which to separate (negative counts from the end).

    Returns:
        tuple of ~chainer.Variable: ``x.shape[axis]`` arrays, each with that
        axis removed.

    .. admonition:: Example

        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> ys = F.separate(x, axis=1)
        >>> len(ys), ys[0].array
        (3, array([0., 3.], dtype=float32))
    """
    return Separate(axis).apply((x,))
