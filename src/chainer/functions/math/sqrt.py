"""Square root and reciprocal square root."""
from chainer import backend
from chainer import function_node
from chainer.functions.math import _elementwise
from chainer import utils


class Sqrt(function_node.FunctionNode):

    @property
    def label(self):
        return 'sqrt'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return backend.get_array_module(x).sqrt(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] / (y * 2),


def sqrt(x):
    """Square root of each element.

    .. math:: y_i = \\sqrt{x_i}

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Sqrt().apply((x,))[0]


class Rsqrt(function_node.FunctionNode):

    @property
    def label(self):
        return 'rsqrt'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        # In place: one temporary instead of two (sqrt of a 0-d array is a scalar).
        y = utils.force_array(xp.sqrt(x))
        xp.reciprocal(y, out=y)
        return y,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        # d x^(-1/2) / dx = -x^(-3/2) / 2 = -y^3 / 2
        return grad_outputs[0] * (y * y * y * -0.5),


def rsqrt(x):
    """Elementwise reciprocal of the square root.

    .. math:: y_i = \\frac{1}{\\sqrt{x_i}}

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Rsqrt().apply((x,))[0]
