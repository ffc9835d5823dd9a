"""Error function."""
import math

import chainer
from chainer import function_node
from chainer.functions.math import _elementwise

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


class Erf(function_node.FunctionNode):

    @property
    def label(self):
        return 'erf'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        return _elementwise.apply('erf', 'erf', inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        # erf'(x) = 2 / sqrt(pi) * exp(-x^2)
        return grad_outputs[0] * chainer.functions.exp(-chainer.functions.square(x)) \
            * _TWO_OVER_SQRT_PI,


def erf(x):
    """Gauss error function of each element.

    .. math:: y_i = \\frac{2}{\\sqrt{\\pi}} \\int_0^{x_i} e^{-t^2} dt

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Erf().apply((x,))[0]
