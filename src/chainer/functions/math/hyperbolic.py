"""Hyperbolic sine and cosine."""
from chainer import backend
from chainer import function_node
from chainer.functions.math import _elementwise


class Cosh(function_node.FunctionNode):

    @property
    def label(self):
        return 'cosh'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).cosh(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * sinh(x),


def cosh(x):
    """Hyperbolic cosine of each element.

    .. math:: y_i = \\cosh x_i = \\frac{e^{x_i} + e^{-x_i}}{2}

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Cosh().apply((x,))[0]


class Sinh(function_node.FunctionNode):

    @property
    def label(self):
        return 'sinh'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).sinh(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * cosh(x),


def sinh(x):
    """Hyperbolic sine of each element.

    .. math:: y_i = \\sinh x_i = \\frac{e^{x_i} - e^{-x_i}}{2}

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Sinh().apply((x,))[0]
