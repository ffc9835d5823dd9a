"""Rectified linear unit."""
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class ReLU(function_node.FunctionNode):
    """Rectified linear unit, ``max(0, x)``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        # A Python 0 is a weak scalar: the result keeps x's dtype.
        return backend.get_array_module(x).maximum(x, 0),

    def backward(self, indexes, grad_outputs):
        return ReLUGrad2(self.output_data[0]).apply(grad_outputs)


class ReLUGrad2(function_node.FunctionNode):
    """Computes ``gy * (y > 0)`` for the output ``y`` of ReLU.

    The map is linear in ``gy`` with a mask fixed by ``y``, so its backward is
    the same node again.
    """

    def __init__(self, b):
        self.b = b

    def forward(self, inputs):
        # NOTE: ReLU'(0) is taken as 0, like Chainer.
        return inputs[0] * (self.b > 0),

    def backward(self, indexes, grad_outputs):
        return ReLUGrad2(self.b).apply(grad_outputs)


def relu(x):
    """ReLU: ``max(x, 0)`` for each element.

    .. math:: f(x) = \\max(0, x)

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([[-1, 0], [2, -3]], np.float32)
        >>> F.relu(x).array
        array([[0., 0.],
               [2., 0.]], dtype=float32)
    """
    return ReLU().apply((x,))[0]
