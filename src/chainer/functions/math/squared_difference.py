"""Elementwise squared difference of two inputs."""
from chainer import function_node
from chainer.functions.math import _elementwise


class SquaredDifference(function_node.FunctionNode):

    @property
    def label(self):
        return 'squared_difference'

    def check_type_forward(self, in_types):
        _elementwise.check_binary_float(in_types)

    def forward(self, inputs):
        x1, x2 = inputs
        self.retain_inputs((0, 1))
        diff = x1 - x2
        diff *= diff
        return diff,

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        g = grad_outputs[0] * (x1 - x2) * 2
        ret = []
        if 0 in indexes:
            ret.append(_elementwise.sum_to(g, x1.shape))
        if 1 in indexes:
            ret.append(_elementwise.sum_to(-g, x2.shape))
        return tuple(ret)


def squared_difference(x1, x2):
    """Elementwise squared difference of two inputs.

    .. math:: y_i = (x_{1,i} - x_{2,i})^2

    Args:
        x1 (~chainer.Variable or N-dimensional array): First input (float).
        x2 (~chainer.Variable or N-dimensional array): Second input, of the
            same dtype and a shape that broadcasts with ``x1``.

    Returns:
        ~chainer.Variable: Output of the broadcast shape.
    """
    return SquaredDifference().apply((x1, x2))[0]
