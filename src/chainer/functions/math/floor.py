"""Floor (not differentiable)."""
from chainer.functions.math import _elementwise


def floor(x):
    """Largest integer not greater than each element (as a float).

    .. math:: y_i = \\lfloor x_i \\rfloor

    The result is not connected to the computational graph (the derivative
    is zero wherever it exists), so no gradient flows back to ``x``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return _elementwise.no_grad('floor', x)
