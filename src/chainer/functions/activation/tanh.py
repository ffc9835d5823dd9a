"""Hyperbolic tangent."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.utils import type_check

_LightTypes = type_check.LightTypeInfoTuple

class Tanh(function_node.FunctionNode):
    """Elementwise hyperbolic tangent."""

    def check_type_forward(self, in_types):
        # Light mode: the same contract, evaluated on the array without helper calls.
        if (in_types.__class__ is _LightTypes and len(in_types) == 1
                and in_types[0].dtype.kind == 'f'):
            return
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        if x.__class__ is numpy.ndarray:    # skips the dispatch call on the common path
            return numpy.tanh(x),
        return backend.get_array_module(x).tanh(x),

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0]
        return TanhGrad().apply((y, grad_outputs[0]))


class TanhGrad(function_node.FunctionNode):
    """Computes ``gy * (1 - y^2)`` from the output ``y`` of tanh."""

    def forward(self, inputs):
        y, gy = inputs
        self.retain_inputs((0, 1))
        one = y.dtype.type(1)
        return gy * (one - y * y),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx = grad_outputs[0]
        ret = []
        if 0 in indexes:
            # d/dy [gy (1 - y^2)] = -2 y gy
            ret.append(-2 * y * gy * ggx)
        if 1 in indexes:
            # ggx (1 - y^2): this very node again, one node instead of three
            ret.append(TanhGrad().apply((y, ggx))[0])
        return tuple(ret)


def tanh(x):
    """Hyperbolic tangent of each element.

    .. math:: f(x) = \\tanh(x)

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([0., 1.], np.float32)
        >>> F.tanh(x).array
        array([0.       , 0.7615942], dtype=float32)
    """
    return Tanh().apply((x,))[0]
