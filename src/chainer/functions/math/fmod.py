"""Floating-point remainder with the sign of the dividend."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _sum_to(gx, shape):
    return gx if gx.shape == shape else chainer.functions.sum_to(gx, shape)


class Fmod(function_node.FunctionNode):

    @property
    def label(self):
        return 'fmod'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'divisor'))
        x_type, divisor_type = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.dtype == divisor_type.dtype)
        type_check.expect_broadcast_shapes(x_type.shape, divisor_type.shape)

    def forward(self, inputs):
        x, divisor = inputs
        self.retain_inputs((0, 1))
        return backend.get_array_module(x).fmod(x, divisor),

    def backward(self, indexes, grad_outputs):
        x, divisor = self.get_retained_inputs()
        gy = grad_outputs[0]
        ret = []
        if 0 in indexes:
            ret.append(_sum_to(gy, x.shape))
        if 1 in indexes:
            # fmod(x, d) = x - d * fix(x / d); the quotient is piecewise constant.
            xp = backend.get_array_module(x.array)
            quotient = xp.fix(x.array / divisor.array)
            ret.append(_sum_to(gy * -quotient, divisor.shape))
        return tuple(ret)


def fmod(x, divisor):
    """Elementwise remainder of ``x / divisor`` with the sign of ``x`` (C's ``fmod``).

    .. math:: y_i = x_i - d_i \\operatorname{fix}(x_i / d_i)

    Args:
        x (~chainer.Variable or N-dimensional array): Dividend (float).
        divisor (~chainer.Variable or N-dimensional array): Divisor, of the
            same dtype and a shape that broadcasts with ``x``.

    Returns:
        ~chainer.Variable: The remainder, of the broadcast shape.
    """
    return Fmod().apply((x, divisor))[0]
