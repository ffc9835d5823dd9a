"""Sign (not differentiable)."""
from chainer.functions.math import _elementwise


def sign(x):
    """Sign of each element: -1, 0 or 1.

    .. math:: y_i = -1 \\text{ if } x_i < 0, \\quad 0 \\text{ if } x_i = 0,
        \\quad 1 \\text{ if } x_i > 0

    The result is not connected to the computational graph (the derivative
    is zero wherever it exists), so no gradient flows back to ``x``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input; as in Chainer,
            anything NumPy turns into an array (a list, a number) is taken too.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.
    """
    return _elementwise.no_grad('sign', x, array_like=True)
