"""Logarithm of the standard normal cumulative distribution function."""
import math

import chainer
from chainer import function_node
from chainer.functions.math import _elementwise

_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_INV_SQRT_2 = 1 / math.sqrt(2)


class LogNdtr(function_node.FunctionNode):

    @property
    def label(self):
        return 'log_ndtr'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types, named=False)

    def forward(self, inputs):
        self.retain_inputs((0,))
        return _elementwise.apply('log_ndtr', 'log_ndtr', inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # d log(ndtr(x)) = pdf(x) / ndtr(x). Writing ndtr(x) as
        # exp(-x^2/2) erfcx(-x / sqrt 2) / 2 cancels the exponentials, which keeps the
        # ratio finite far into the left tail where both pdf and ndtr underflow.
        return grad_outputs[0] * _SQRT_2_OVER_PI \
            / chainer.functions.erfcx(x * -_INV_SQRT_2),


def log_ndtr(x):
    """Elementwise logarithm of the standard normal cumulative distribution function.

    .. math:: y_i = \\log \\Phi(x_i)

    Unlike ``log(ndtr(x))`` it stays accurate for very negative ``x``.

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return LogNdtr().apply((x,))[0]
