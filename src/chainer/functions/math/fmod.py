"""Floating-point remainder with the sign of the dividend."""
from chainer import backend
from chainer import function_node
from chainer.functions.math import _elementwise
from chainer.functions import _static_arrays
from chainer.utils import type_check


class Fmod(function_node.FunctionNode):

    @property
    def label(self):
        return 'fmod'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'divisor'))
        type_check.expect(in_types[0].dtype == in_types[1].dtype)   # (first, as in Chainer)
        _elementwise.check_binary_float(in_types, ('x', 'divisor'))

    def forward(self, inputs):
        x, divisor = inputs
        self.retain_inputs((0, 1))
        return backend.get_array_module(x).fmod(x, divisor),

    def backward(self, indexes, grad_outputs):
        x, divisor = self.get_retained_inputs()
        gy = grad_outputs[0]
        ret = []
        if 0 in indexes:
            ret.append(_elementwise.sum_to(gy, x.shape))
        if 1 in indexes:
            # fmod(x, d) = x - d * fix(x / d); the quotient is piecewise constant.
            minus_quotient, = _static_arrays.compute(_minus_quotient, x.array, divisor.array)
            ret.append(_elementwise.sum_to(gy * minus_quotient, divisor.shape))
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


def _minus_quotient(x, divisor):
    return -backend.get_array_module(x).fix(x / divisor)
