"""Logarithm of softmax."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.activation import _grad_util
from chainer.functions.math import exponential as _exponential
from chainer.functions.math import sum as _sum


def _log_softmax(x, axis):
    """Computes ``x - logsumexp(x)`` along ``axis`` on arrays, stably."""
    xp = backend.get_array_module(x)
    if x.size == 0:
        return xp.empty_like(x)
    dtype = x.dtype
    if dtype == numpy.float16:
        # exp/sum/log lose too much in half precision; work in float32.
        x = x.astype(numpy.float32)
    y = x - x.max(axis=axis, keepdims=True)
    lse = xp.log(xp.exp(y).sum(axis=axis, keepdims=True))
    y -= lse
    return y.astype(dtype, copy=False)


class LogSoftmax(function_node.FunctionNode):
    """Log-softmax along one axis."""

    def __init__(self, axis=1):
        self.axis = _checks.axis_arg('log_softmax', axis)

    def check_type_forward(self, in_types):
        _grad_util.check_axis_input(in_types, self.axis, 'log_softmax')

    def forward(self, inputs):
        self.retain_outputs((0,))
        return _log_softmax(inputs[0], self.axis),

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0]
        gy, = grad_outputs
        # d log_softmax = gy - softmax(x) sum(gy), and softmax(x) = exp(y).
        return gy - _exponential.exp(y) * _sum.sum(gy, axis=self.axis, keepdims=True),


def log_softmax(x, axis=1):
    """Logarithm of the softmax function along an axis.

    .. math:: y_i = x_i - \\log \\sum_j \\exp(x_j)

    Computed as ``x - max(x) - log(sum(exp(x - max(x))))``, which stays finite
    for large logits where ``log(softmax(x))`` would give ``-inf``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float) of at
            least ``axis + 1`` dimensions.
        axis (int): Axis along which to normalize.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([[0., 0., 1e4]], np.float32)
        >>> F.log_softmax(x).array
        array([[-10000., -10000.,      0.]], dtype=float32)
    """
    return LogSoftmax(axis).apply((x,))[0]
