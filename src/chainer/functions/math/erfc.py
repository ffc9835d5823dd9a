"""Complementary error function."""
import math

import chainer
from chainer import function_node
from chainer.functions.math import _elementwise

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


class Erfc(function_node.FunctionNode):

    @property
    def label(self):
        return 'erfc'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        return _elementwise.apply('erfc', 'erfc', inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # erfc'(x) = -2 / sqrt(pi) * exp(-x^2)
        return grad_outputs[0] * chainer.functions.exp(-chainer.functions.square(x)) \
            * -_TWO_OVER_SQRT_PI,


def erfc(x):
    """Complementary error function ``1 - erf(x)`` of each element.

    .. math:: y_i = 1 - \\operatorname{erf}(x_i)
        = \\frac{2}{\\sqrt{\\pi}} \\int_{x_i}^\\infty e^{-t^2} dt

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Erfc().apply((x,))[0]
