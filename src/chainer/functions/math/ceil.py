"""Ceiling (not differentiable)."""
from chainer.functions.math import _elementwise


def ceil(x):
    """Elementwise ceiling function.

    .. math:: y_i = \\lceil x_i \\rceil

    The result is not connected to the computational graph (the derivative
    is zero wherever it exists), so no gradient flows back to ``x``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return _elementwise.no_grad('ceil', x)
