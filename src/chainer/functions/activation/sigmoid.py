"""Logistic sigmoid."""
from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.utils import type_check


class Sigmoid(function_node.FunctionNode):
    """Elementwise logistic sigmoid."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        half = x.dtype.type(0.5)
        # sigmoid(x) = (tanh(x / 2) + 1) / 2 never overflows, unlike 1 / (1 + exp(-x)).
        y = utils.force_array(xp.tanh(x * half))
        y *= half
        y += half
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0]
        return SigmoidGrad().apply((y, grad_outputs[0]))


class SigmoidGrad(function_node.FunctionNode):
    """Computes ``gy * y * (1 - y)`` from the output ``y`` of sigmoid."""

    def forward(self, inputs):
        y, gy = inputs
        self.retain_inputs((0, 1))
        one = y.dtype.type(1)
        return utils.force_array(gy * y * (one - y)),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            # d/dy [gy y (1 - y)] = gy (1 - 2 y)
            ret.append(ggx * gy * (1 - 2 * y))
        if 1 in indexes:
            ret.append(SigmoidGrad().apply((y, ggx))[0])
        return tuple(ret)


def sigmoid(x):
    """Elementwise logistic sigmoid function.

    .. math:: f(x) = \\frac{1}{1 + \\exp(-x)}

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([0., 1., -1.], np.float32)
        >>> F.sigmoid(x).array
        array([0.5      , 0.7310586, 0.2689414], dtype=float32)
    """
    return Sigmoid().apply((x,))[0]
