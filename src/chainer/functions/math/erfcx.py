"""Scaled complementary error function."""
import importlib.util
import math

from chainer import function_node
from chainer.functions.math import _elementwise

_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)
# Whether the CPU path can run (it needs SciPy, imported on first use).
available_cpu = importlib.util.find_spec('scipy') is not None


class Erfcx(function_node.FunctionNode):

    @property
    def label(self):
        return 'erfcx'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types, named=False)

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        return _elementwise.apply('erfcx', 'erfcx', inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        # d/dx [exp(x^2) erfc(x)] = 2 x erfcx(x) - 2 / sqrt(pi)
        return grad_outputs[0] * (x * y * 2 - _TWO_OVER_SQRT_PI),


def erfcx(x):
    """Scaled complementary error function ``exp(x ** 2) * erfc(x)`` of each element.

    .. math:: y_i = e^{x_i^2} \\operatorname{erfc}(x_i)

    It stays finite where ``erfc`` underflows (large positive ``x``).

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Erfcx().apply((x,))[0]
