"""Digamma function."""
import numpy

import chainer
from chainer import function_node
from chainer.functions.math import _elementwise


class DiGamma(function_node.FunctionNode):

    @property
    def label(self):
        return 'digamma'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        return _elementwise.apply('digamma', 'digamma', inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        xp = chainer.backend.get_array_module(x.array)
        one = xp.ones(x.shape, numpy.int32)
        return grad_outputs[0] * chainer.functions.polygamma(one, x),


def digamma(x):
    """Elementwise digamma function, the derivative of :func:`~chainer.functions.lgamma`.

    .. math:: y_i = \\psi(x_i) = \\frac{d}{dx_i} \\log \\Gamma(x_i)

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return DiGamma().apply((x,))[0]
