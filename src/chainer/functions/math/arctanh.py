"""Inverse hyperbolic tangent."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.math import _elementwise


class Arctanh(function_node.FunctionNode):

    @property
    def label(self):
        return 'Arctanh'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).arctanh(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (1 - chainer.functions.square(x)),


def arctanh(x):
    """Inverse hyperbolic tangent (area tangent) of each element.

    .. math:: y_i = \\tanh^{-1} x_i

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float, in
            ``(-1, 1)``).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Arctanh().apply((x,))[0]
