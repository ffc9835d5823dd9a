"""Elementwise minimum of two inputs."""
import operator

from chainer.functions.math import _elementwise


class Minimum(_elementwise.Extremum):

    _ufunc = 'minimum'
    _x1_wins = operator.le


def minimum(x1, x2):
    """Elementwise minimum of two inputs.

    .. math:: y_i = \\min(x_{1,i}, x_{2,i})

    Where the inputs are equal the gradient goes to ``x1``.

    Args:
        x1 (~chainer.Variable or N-dimensional array): First input (float).
        x2 (~chainer.Variable or N-dimensional array): Second input, of the
            same dtype and a shape that broadcasts with ``x1``.

    Returns:
        ~chainer.Variable: Output of the broadcast shape.
    """
    return Minimum().apply((x1, x2))[0]
