"""Cumulative distribution function of the standard normal."""
import math

import chainer
from chainer import function_node
from chainer.functions.math import _elementwise

_INV_SQRT_2PI = 1 / math.sqrt(2 * math.pi)


class Ndtr(function_node.FunctionNode):

    @property
    def label(self):
        return 'ndtr'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types, named=False)

    def forward(self, inputs):
        self.retain_inputs((0,))
        return _elementwise.apply('ndtr', 'ndtr', inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # The derivative is the normal density exp(-x^2 / 2) / sqrt(2 pi).
        return grad_outputs[0] * chainer.functions.exp(chainer.functions.square(x) * -0.5) \
            * _INV_SQRT_2PI,


def ndtr(x):
    """Elementwise cumulative distribution function of the standard normal distribution.

    .. math:: y_i = \\frac{1}{\\sqrt{2\\pi}} \\int_{-\\infty}^{x_i} e^{-t^2/2} dt

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Ndtr().apply((x,))[0]
