"""Huber loss: squared near zero, absolute further out."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.loss import _common


class HuberLoss(function_node.FunctionNode):
    """Elementwise Huber loss, optionally summed along the second axis."""

    def __init__(self, delta, reduce='sum_along_second_axis'):
        _common.check_reduce('huber_loss', reduce, ('sum_along_second_axis', 'no'))
        self.delta = delta
        self.reduce = reduce

    def check_type_forward(self, in_types):
        _common.check_same_float(in_types, ('x', 't'))

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        delta = self.delta
        diff = x - t
        if diff.dtype == numpy.float16:
            diff = diff.astype(numpy.float32)   # the squares and sums round less
        a = xp.abs(diff)
        y = xp.where(a <= delta, 0.5 * diff * diff, delta * (a - 0.5 * delta))
        if self.reduce == 'sum_along_second_axis':
            y = y.sum(axis=1)
        return xp.asarray(y, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        if self.reduce == 'sum_along_second_axis':
            gy = chainer.functions.expand_dims(gy, 1)
        # d/dx of the loss is the difference clipped to [-delta, delta].
        g = chainer.functions.clip(x - t, -float(self.delta), float(self.delta))
        g = g * chainer.functions.broadcast_to(gy, g.shape)
        return tuple(g if i == 0 else -g for i in indexes)


def huber_loss(x, t, delta, reduce='sum_along_second_axis'):
    """Huber loss.

    .. math::
        L_\\delta(a) = \\begin{cases} \\frac{1}{2} a^2 & |a| \\le \\delta \\\\
        \\delta (|a| - \\frac{1}{2}\\delta) & \\text{otherwise} \\end{cases},
        \\quad a = x - t

    Args:
        x (~chainer.Variable or N-dimensional array): Predictions (float),
            at least 2-dimensional when summed along the second axis.
        t (~chainer.Variable or N-dimensional array): Targets, of the same
            shape and dtype.
        delta (float): Where the loss turns from squared to linear.
        reduce (str): ``'sum_along_second_axis'`` sums the elementwise loss
            along axis 1; ``'no'`` returns it unreduced.

    Returns:
        ~chainer.Variable: The loss, of shape ``x.shape`` without axis 1 or of
        ``x.shape``.

    .. admonition:: Example

        >>> x = np.array([[0., 3.]], 'f')
        >>> F.huber_loss(x, np.zeros_like(x), 1.0).array
        array([2.5], dtype=float32)
    """
    return HuberLoss(delta, reduce).apply((x, t))[0]
