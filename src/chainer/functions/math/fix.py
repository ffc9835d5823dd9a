"""Rounding toward zero (not differentiable)."""
from chainer.functions.math import _elementwise


def fix(x):
    """Elementwise rounding toward zero.

    .. math:: y_i = \\operatorname{sgn}(x_i) \\lfloor |x_i| \\rfloor

    The result is not connected to the computational graph (the derivative
    is zero wherever it exists), so no gradient flows back to ``x``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> F.fix(np.array([-1.5, 0.5, 2.7], np.float32)).array
        array([-1.,  0.,  2.], dtype=float32)
    """
    return _elementwise.no_grad('fix', x)
