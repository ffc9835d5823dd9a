"""Elementwise square."""
from chainer import backend
from chainer import function_node
from chainer.functions.math import _elementwise


class Square(function_node.FunctionNode):

    @property
    def label(self):
        return 'square'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).square(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * (x * 2),


def square(x):
    """Square of each element.

    .. math:: y_i = x_i^2

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Square().apply((x,))[0]
