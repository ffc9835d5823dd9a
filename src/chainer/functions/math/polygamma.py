"""Polygamma functions."""
import chainer
from chainer import function_node
from chainer import utils
from chainer.functions.math import _elementwise
from chainer.utils import type_check


class PolyGamma(function_node.FunctionNode):

    @property
    def label(self):
        return 'polygamma'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('n', 'x'))
        n_type, x_type = in_types
        type_check.expect(n_type.dtype.kind == 'i', x_type.dtype.kind == 'f')
        type_check.expect_broadcast_shapes(n_type.shape, x_type.shape)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        n, x = inputs
        return _elementwise.apply('polygamma', 'polygamma', n, x),

    def backward(self, indexes, grad_outputs):
        n, x = self.get_retained_inputs()
        ret = []
        for i in indexes:
            if i == 0:
                # The order is an integer: no gradient.
                ret.append(None)
            else:
                gx = grad_outputs[0] * polygamma(utils.force_array(n.array + 1), x)
                if gx.shape != x.shape:
                    gx = chainer.functions.sum_to(gx, x.shape)
                ret.append(gx)
        return tuple(ret)


def polygamma(n, x):
    """Elementwise polygamma function, the ``n``-th derivative of the digamma function.

    .. math:: y_i = \\psi^{(n_i)}(x_i) = \\frac{d^{n_i + 1}}{dx_i^{n_i + 1}} \\log \\Gamma(x_i)

    ``polygamma(0, x)`` is :func:`~chainer.functions.digamma`. The gradient
    flows to ``x`` only.

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        n (~chainer.Variable or N-dimensional array): Orders (integer dtype,
            non-negative).
        x (~chainer.Variable or N-dimensional array): Input (float), of a shape
            that broadcasts with ``n``.

    Returns:
        ~chainer.Variable: Output of the broadcast shape and the dtype of ``x``.
    """
    return PolyGamma().apply((n, x))[0]
