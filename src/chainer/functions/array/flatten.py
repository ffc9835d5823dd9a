"""Flatten a variable into one dimension."""
from chainer.functions import _checks
from chainer.functions.array import reshape as _reshape


def flatten(x):
    """Flattens a variable into a 1-D variable (C order).

    Args:
        x (~chainer.Variable or N-dimensional array): Input.

    Returns:
        ~chainer.Variable: A 1-D variable of ``x.size`` elements.

    .. admonition:: Example

        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.flatten(x).array
        array([0., 1., 2., 3., 4., 5.], dtype=float32)
    """
    _checks.shape_of('flatten', 'x', x)
    return _reshape.reshape(x, (x.size,))
