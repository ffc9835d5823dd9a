"""Logarithm of the absolute value of the gamma function."""
import chainer
from chainer import function_node
from chainer.functions.math import _elementwise


class LGamma(function_node.FunctionNode):

    @property
    def label(self):
        return 'lgamma'

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        return _elementwise.apply('lgamma', 'gammaln', inputs[0]),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return grad_outputs[0] * chainer.functions.digamma(x),


def lgamma(x):
    """Elementwise logarithm of the absolute value of the gamma function.

    .. math:: y_i = \\log |\\Gamma(x_i)|

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return LGamma().apply((x,))[0]
