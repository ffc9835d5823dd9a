"""Elementwise linear interpolation between two inputs."""
import numpy

from chainer import function_node
from chainer.functions.math import _elementwise
from chainer.utils import type_check


class LinearInterpolate(function_node.FunctionNode):

    @property
    def label(self):
        return 'LinearInterpolate'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('p', 'x', 'y'))
        p_type, x_type, y_type = in_types
        type_check.expect(
            p_type.dtype.kind == 'f',
            x_type.dtype == p_type.dtype,
            y_type.dtype == p_type.dtype,
        )
        # Shapes that broadcast together are accepted (beyond Chainer, which wants one
        # shape); others are refused with Chainer's words.
        try:
            numpy.broadcast_shapes(*(type_check.eval(t.shape) for t in in_types))
        except ValueError:
            type_check.expect(p_type.shape == x_type.shape, p_type.shape == y_type.shape)

    def forward(self, inputs):
        p, x, y = inputs
        self.retain_inputs((0, 1, 2))
        out = x - y
        out *= p
        out += y
        return out,

    def backward(self, indexes, grad_outputs):
        p, x, y = self.get_retained_inputs()
        g = grad_outputs[0]
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_elementwise.sum_to(g * (x - y), p.shape))
            elif i == 1:
                ret.append(_elementwise.sum_to(g * p, x.shape))
            else:
                ret.append(_elementwise.sum_to(g * (1 - p), y.shape))
        return tuple(ret)


def linear_interpolate(p, x, y):
    """Elementwise linear interpolation between ``x`` and ``y`` with weight ``p``.

    .. math:: z_i = p_i x_i + (1 - p_i) y_i

    Args:
        p (~chainer.Variable or N-dimensional array): Weights of ``x``
            (float).
        x (~chainer.Variable or N-dimensional array): First input.
        y (~chainer.Variable or N-dimensional array): Second input.

    All three share one dtype; their shapes must broadcast together.

    Returns:
        ~chainer.Variable: Output of the broadcast shape.
    """
    return LinearInterpolate().apply((p, x, y))[0]
