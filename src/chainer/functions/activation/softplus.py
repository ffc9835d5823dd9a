"""Softplus, a smooth approximation of ReLU."""
from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.functions.activation import sigmoid as _sigmoid
from chainer.utils import type_check


class Softplus(function_node.FunctionNode):
    """Elementwise ``log(1 + exp(beta x)) / beta``."""

    def __init__(self, beta=1.0):
        self.beta = float(beta)
        self.beta_inv = 1.0 / self.beta

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        t = x.dtype.type
        self.retain_inputs((0,))
        # logaddexp(0, z) = log(1 + exp(z)) without overflow for large z.
        y = utils.force_array(xp.logaddexp(t(0), x * t(self.beta)))
        if self.beta != 1.0:
            y *= t(self.beta_inv)
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        bx = x if self.beta == 1.0 else x * self.beta
        return grad_outputs[0] * _sigmoid.sigmoid(bx),


def softplus(x, beta=1.0):
    """Elementwise softplus function.

    .. math:: f(x) = \\frac{1}{\\beta} \\log(1 + \\exp(\\beta x))

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        beta (float): Sharpness; the larger, the closer to ReLU.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([-1., 0., 1.], np.float32)
        >>> F.softplus(x).array
        array([0.3132617, 0.6931472, 1.3132617], dtype=float32)
    """
    return Softplus(beta).apply((x,))[0]
