"""Permute the axes of a variable."""
import numpy

from chainer import function_node
from chainer.utils import type_check


class Transpose(function_node.FunctionNode):
    """Permutes the dimensions of an input array."""

    def __init__(self, axes=None):
        self.axes = axes

    @property
    def label(self):
        return 'Transpose'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        if self.axes is not None:
            type_check.expect(in_types[0].ndim == len(self.axes))

    def forward(self, inputs):
        x, = inputs
        return x.transpose(self.axes),

    def backward(self, indexes, grad_outputs):
        inv = None
        if self.axes is not None:
            inv = tuple(numpy.argsort([a % len(self.axes) for a in self.axes]).tolist())
        return Transpose(inv).apply(grad_outputs)


def transpose(x, axes=None):
    """Permutes the dimensions of an input variable.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        axes (tuple of int): New order of the axes; ``None`` reverses them.

    Returns:
        ~chainer.Variable: Permuted variable.
    """
    return Transpose(axes).apply((x,))[0]
