"""Inverse of the error function."""
import importlib.util
import math

import chainer
from chainer import function_node
from chainer.functions.math import _elementwise

BACKWORDC = math.sqrt(math.pi) / 2
# Whether the CPU path can run (it needs SciPy, imported on first use).
available_cpu = importlib.util.find_spec('scipy') is not None


class ErfInv(function_node.FunctionNode):

    @property
    def label(self):
        return 'erfinv'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        self.retain_outputs((0,))
        return _elementwise.apply('erfinv', 'erfinv', inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        # The inverse function's derivative: 1 / erf'(y) = sqrt(pi) / 2 * exp(y^2)
        return grad_outputs[0] * chainer.functions.exp(chainer.functions.square(y)) \
            * BACKWORDC,


def erfinv(x):
    """Elementwise inverse error function.

    .. math:: y_i = \\operatorname{erf}^{-1}(x_i)

    Inputs outside ``[-1, 1]`` give NaN; ``-1`` and ``1`` give infinities.

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return ErfInv().apply((x,))[0]
