"""Gradient nodes shared by the piecewise-linear activations of this family."""
from chainer import function_node


class ScaleGrad(function_node.FunctionNode):
    """Multiplies its input by a fixed array of local slopes.

    Piecewise-linear activations (leaky/clipped/randomized ReLU, hard sigmoid)
    have a gradient ``gy * coef`` where ``coef`` depends only on the forward
    input, so the map is linear in ``gy`` and is its own adjoint: the backward
    of this node is this node again, which makes every order of
    differentiation work.
    """

    def __init__(self, coef):
        self.coef = coef

    def forward(self, inputs):
        return inputs[0] * self.coef,

    def backward(self, indexes, grad_outputs):
        return ScaleGrad(self.coef).apply(grad_outputs)
