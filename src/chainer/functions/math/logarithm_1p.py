"""log(1 + x), accurate near zero."""
from chainer import backend
from chainer import function_node
from chainer.functions.math import _elementwise


class Log1p(function_node.FunctionNode):

    @property
    def label(self):
        return 'log1p'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        return backend.get_array_module(x).log1p(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] / (x + 1),


def log1p(x):
    """Elementwise ``log(1 + x)``, computed without cancellation for small ``x``.

    .. math:: y_i = \\log(1 + x_i)

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float, greater
            than -1).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return Log1p().apply((x,))[0]
