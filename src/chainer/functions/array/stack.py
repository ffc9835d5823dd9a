"""Join variables along a new axis."""
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.array import concat as _concat
from chainer.utils import type_check


class Stack(function_node.FunctionNode):
    """Stacks inputs of one shape along a new axis."""

    def __init__(self, axis):
        self.axis = _checks.axis_arg('stack', axis, bool_ok=True)

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        x0 = in_types[0]
        # The new axis may go anywhere from before the first to after the last.
        # Chainer's words first: in_types[0].ndim >= axis, or -in_types[0].ndim - 1 <= axis
        if self.axis >= 0:
            type_check.expect(x0.ndim >= self.axis)
        else:
            type_check.expect(-x0.ndim - 1 <= self.axis)
        _checks.expect_axis(x0, self.axis, 1, func='stack', xname='xs[0]')
        for t in in_types[1:]:
            type_check.expect(t.dtype == x0.dtype, t.shape == x0.shape)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        self._shape = xs[0].shape
        return xp.stack(xs, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        n = len(self.inputs)
        axis = self.axis % (len(self._shape) + 1)
        return _concat.ConcatGrad(axis, [1] * n, [self._shape] * n).apply(grad_outputs)


def stack(xs, axis=0):
    """Stacks variables of the same shape along a new axis.

    Args:
        xs (list of ~chainer.Variable or N-dimensional array): Inputs of one
            shape and dtype.
        axis (int): Position of the new axis in the output, from
            ``-x.ndim - 1`` to ``x.ndim``.

    Returns:
        ~chainer.Variable: Output with one more dimension than the inputs.

    .. admonition:: Example

        >>> x = np.arange(3, dtype=np.float32)
        >>> F.stack((x, x + 10)).array
        array([[ 0.,  1.,  2.],
               [10., 11., 12.]], dtype=float32)
        >>> F.stack((x, x), axis=1).shape
        (3, 2)
    """
    return Stack(axis).apply(xs)[0]
