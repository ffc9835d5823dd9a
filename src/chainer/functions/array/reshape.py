"""Reshape without copying."""
import chainer
from chainer import function_node
from chainer.utils import type_check


def _count_unknown_dims(shape):
    return sum(1 for s in shape if s < 0)


class Reshape(function_node.FunctionNode):
    """Reshapes an input array without copying."""

    def __init__(self, shape):
        self.shape = tuple(shape)
        if _count_unknown_dims(self.shape) > 1:
            raise ValueError('Shape can include only one unknown dimension (-1), '
                             f'got {self.shape}')

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        known = 1
        for s in self.shape:
            if s > 0:
                known *= s
        size = type_check.prod(x_type.shape)
        if _count_unknown_dims(self.shape) == 1:
            # The product of the known dims must divide the total size.
            type_check.expect(size % known == 0)
        else:
            type_check.expect(size == known)

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return x.reshape(self.shape),

    def backward(self, indexes, grad_outputs):
        return reshape(grad_outputs[0], self._in_shape),


def reshape(x, shape):
    """Reshapes an input variable without copying the data.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        shape (tuple of int): New shape; one entry may be ``-1``.

    Returns:
        ~chainer.Variable: Reshaped variable.
    """
    if x.shape == tuple(shape):
        return chainer.as_variable(x)
    return Reshape(shape).apply((x,))[0]
