"""Pieces shared by several activations of this family.

* ScaleGrad: the gradient node of the piecewise-linear activations.
* LinearMap: the gradient node of activations that only select and
  rearrange entries of ``gy`` (crelu, maxout).
* param_shape, check_param_input: activations with a learned parameter that
  covers axes ``1 .. p.ndim`` of ``x`` (prelu, swish).
* FirstOrderGrad: the fused array-only gradient nodes (prelu, swish and the
  LSTM cells).
* check_axis_input: activations along one axis (softmax, log_softmax, crelu,
  maxout); their axis argument goes through ``_checks.axis_arg``.
"""
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


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


class LinearMap(function_node.FunctionNode):
    """Applies a fixed linear map ``fn`` to its input; ``adjoint`` is its transpose.

    The gradient of an activation that only masks and rearranges ``gy`` is
    such a map. The backward of a linear map is its adjoint, whose backward
    is the map again, so every order of differentiation works.
    """

    def __init__(self, fn, adjoint):
        self.fn = fn
        self.adjoint = adjoint

    def forward(self, inputs):
        return self.fn(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return LinearMap(self.adjoint, self.fn).apply(grad_outputs)


def param_shape(x_ndim, p_shape):
    """Shape that broadcasts a parameter of shape ``x.shape[1:1 + p.ndim]`` against ``x``.

    The parameter is shared over the batch axis and the trailing axes.
    """
    return (1,) + tuple(p_shape) + (1,) * (x_ndim - len(p_shape) - 1)


def check_param_input(in_types, names, p_first=False):
    """States the contract of ``f(x, p)``: float ``x``, ``p`` of its dtype covering axes 1..

    ``p_first`` states the conditions with ``p`` first, ``p.ndim <= x.ndim - 1`` and
    ``p.shape == x.shape[1:...]`` (swish's words in Chainer), rather than ``x.ndim >= p.ndim +
    1`` and ``x.shape[1:...] == p.shape`` (prelu's).
    """
    type_check._argname(in_types, names)
    x_type, p_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        p_type.dtype == x_type.dtype,
        p_type.ndim <= x_type.ndim - 1 if p_first else x_type.ndim >= p_type.ndim + 1,
    )
    covered = x_type.shape[1:1 + type_check.eval(p_type.ndim)]
    type_check.expect(p_type.shape == covered if p_first else covered == p_type.shape)


class FirstOrderGrad(function_node.FunctionNode):
    """Base of the fused gradient nodes that compute all input gradients on arrays at once.

    They are built only when the backward pass is not recorded, so they never
    need a backward of their own.
    """

    def backward(self, indexes, grad_outputs):
        raise RuntimeError(f'{type(self).__name__} is not differentiable; it is built only when '
                           'the backward pass is not recorded (enable_double_backprop=False)')


def check_axis_input(in_types, axis, func):
    """States the contract of ``f(x)`` along ``axis``: ``x`` is float and has that axis."""
    type_check._argname(in_types, ('x',))
    x_type, = in_types
    type_check.expect(x_type.dtype.kind == 'f')
    _checks.expect_axis(x_type, axis, func=func)
