"""Multiplying by a scale that is broadcast along some axes."""
from chainer.functions.math import bias as _bias


def scale(x, y, axis=1):
    """Elementwise product of ``x`` and ``y``, with ``y`` broadcast along the other axes.

    The axes of ``y`` are matched with the axes of ``x`` starting from
    ``axis``; ``y`` is repeated along all the other axes of ``x`` (see
    :func:`~chainer.functions.bias`).

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        y (~chainer.Variable or N-dimensional array): Scale, of the same
            dtype; its shape must equal ``x.shape[axis:axis + y.ndim]`` (or
            broadcast to it).
        axis (int): The axis of ``x`` where the first axis of ``y`` goes.

    Returns:
        ~chainer.Variable: Output of the shape of ``x``.

    .. admonition:: Example

        >>> x = np.ones((2, 3), np.float32)
        >>> y = np.array([1., 2., 3.], np.float32)
        >>> F.scale(x, y, axis=1).array
        array([[1., 2., 3.],
               [1., 2., 3.]], dtype=float32)
    """
    # x * y1 with Python's operator (see bias)
    return x * _bias._expand(x, y, axis, 'scale')
