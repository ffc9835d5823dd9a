"""Inverse of the standard normal cumulative distribution function."""
import importlib.util
import math

import chainer
from chainer import function_node
from chainer.functions.math import _elementwise

_SQRT_2PI = math.sqrt(2 * math.pi)
# Whether the CPU path can run (it needs SciPy, imported on first use).
available_cpu = importlib.util.find_spec('scipy') is not None


class Ndtri(function_node.FunctionNode):

    @property
    def label(self):
        return 'ndtri'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types, named=False)

    def forward(self, inputs):
        self.retain_outputs((0,))
        return _elementwise.apply('ndtri', 'ndtri', inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        # The inverse function's derivative: sqrt(2 pi) exp(y^2 / 2)
        return grad_outputs[0] * chainer.functions.exp(chainer.functions.square(y) * 0.5) \
            * _SQRT_2PI,


def ndtri(x):
    """Elementwise inverse of :func:`~chainer.functions.ndtr` (the normal quantile function).

    .. math:: y_i = \\Phi^{-1}(x_i)

    Inputs outside ``[0, 1]`` give NaN; ``0`` and ``1`` give infinities.

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Ndtri().apply((x,))[0]
