"""exp(x) - 1, accurate near zero."""
from chainer import backend
from chainer import function_node
from chainer.functions.math import _elementwise


class Expm1(function_node.FunctionNode):

    @property
    def label(self):
        return 'expm1'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return backend.get_array_module(x).expm1(x),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return grad_outputs[0] * (y + 1),


def expm1(x):
    """Elementwise ``exp(x) - 1``, computed without cancellation for small ``x``.

    .. math:: y_i = e^{x_i} - 1

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Expm1().apply((x,))[0]
