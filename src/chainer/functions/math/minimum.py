"""Elementwise minimum of two inputs."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _sum_to(gx, shape):
    return gx if gx.shape == shape else chainer.functions.sum_to(gx, shape)


class Minimum(function_node.FunctionNode):

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x1', 'x2'))
        x1_type, x2_type = in_types
        type_check.expect(x1_type.dtype.kind == 'f', x1_type.dtype == x2_type.dtype)
        type_check.expect_broadcast_shapes(x1_type.shape, x2_type.shape)

    def forward(self, inputs):
        x1, x2 = inputs
        self.retain_inputs((0, 1))
        return backend.get_array_module(x1).minimum(x1, x2),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        gy = grad_outputs[0]
        # Ties send the whole gradient to x1.
        take_x1 = x1.array <= x2.array
        ret = []
        if 0 in indexes:
            ret.append(_sum_to(gy * take_x1, x1.shape))
        if 1 in indexes:
            ret.append(_sum_to(gy * ~take_x1, x2.shape))
        return tuple(ret)


def minimum(x1, x2):
    """Elementwise minimum of two inputs.

    .. math:: y_i = \\min(x_{1,i}, x_{2,i})

    Where the inputs are equal the gradient goes to ``x1``.

    Args:
        x1 (~chainer.Variable or N-dimensional array): First input (float).
        x2 (~chainer.Variable or N-dimensional array): Second input, of the
            same dtype and a shape that broadcasts with ``x1``.

    Returns:
        ~chainer.Variable: Output of the broadcast shape.
    """
    return Minimum().apply((x1, x2))[0]
