"""Elementwise maximum of two inputs."""
import operator

from chainer.functions.math import _elementwise


class Maximum(_elementwise.Extremum):

    _ufunc = 'maximum'
    _x1_wins = operator.ge


def maximum(x1, x2):
    """Elementwise maximum of two inputs.

    .. math:: y_i = \\max(x_{1,i}, x_{2,i})

    Where the inputs are equal the gradient goes to ``x1``.

    Args:
        x1 (~chainer.Variable or N-dimensional array): First input (float).
        x2 (~chainer.Variable or N-dimensional array): Second input, of the
            same dtype and a shape that broadcasts with ``x1``.

    Returns:
        ~chainer.Variable: Output of the broadcast shape.
    """
    return Maximum().apply((x1, x2))[0]
