"""Hurwitz zeta function."""
import numpy

from chainer import function_node
from chainer.functions.math import _elementwise
from chainer.utils import type_check


class Zeta(function_node.FunctionNode):
    """Hurwitz zeta function of the input ``q`` for a fixed exponent ``x``."""

    def __init__(self, x):
        self._x = x

    @property
    def label(self):
        return 'zeta'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('q',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        q, = inputs
        self.retain_inputs((0,))
        x = self._x
        if getattr(x, 'dtype', None) == numpy.float16:
            x = x.astype(numpy.float32)
        return _elementwise.apply('zeta', 'zeta', x, q),

    def backward(self, indexes, grad_outputs):
        q, = self.get_retained_inputs()
        # d/dq sum_k (k + q)^-x = -x sum_k (k + q)^-(x + 1)
        return grad_outputs[0] * (zeta(self._x + 1, q) * -self._x),


def zeta(x, q):
    """Elementwise Hurwitz zeta function.

    .. math:: y_i = \\zeta(x, q_i) = \\sum_{k=0}^\\infty \\frac{1}{(k + q_i)^x}

    With ``q = 1`` it is the Riemann zeta function. It is differentiable with
    respect to ``q`` only.

    .. note::
       On the CPU this function needs SciPy (``pip install rechainer[scipy]``).

    Args:
        x (float or N-dimensional array): Exponent (a constant, greater
            than 1).
        q (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype as ``q``.
    """
    if x is None:
        raise TypeError('zeta: x must be a float or an N-dimensional array, got None')
    x_shape, q_shape = numpy.shape(x), getattr(q, 'shape', ())
    try:
        numpy.broadcast_shapes(x_shape, q_shape)
    except ValueError:
        # (NumPy's ValueError, where Chainer 7.8.1 fails inside)
        raise ValueError(f'zeta: x of shape {x_shape} and q of shape {tuple(q_shape)} do not '
                         f'broadcast together') from None
    return Zeta(x).apply((q,))[0]
