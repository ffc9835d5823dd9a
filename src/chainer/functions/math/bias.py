"""Adding a bias that is broadcast along some axes."""
import chainer
from chainer.functions.math import basic_math


def _expand(x, y, axis):
    """Reshapes ``y`` so that its axes line up with ``x``'s axes from ``axis`` on."""
    x_shape = x.shape
    y_shape = y.shape
    y1_shape = (1,) * axis + tuple(y_shape) + (1,) * (len(x_shape) - axis - len(y_shape))
    y = chainer.functions.reshape(y, y1_shape)
    if len(y1_shape) != len(x_shape) or any(
            a != b and a != 1 for a, b in zip(y1_shape, x_shape)):
        # Does not fit: let broadcast_to report it (InvalidType, as in Chainer).
        y = chainer.functions.broadcast_to(y, x_shape)
    return y


def bias(x, y, axis=1):
    """Elementwise sum of ``x`` and ``y``, with ``y`` broadcast along the other axes.

    The axes of ``y`` are matched with the axes of ``x`` starting from
    ``axis``; ``y`` is repeated along all the other axes of ``x``. For example
    a per-channel bias of shape ``(C,)`` added to images of shape
    ``(N, C, H, W)`` uses ``axis=1``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        y (~chainer.Variable or N-dimensional array): Bias, of the same dtype;
            its shape must equal ``x.shape[axis:axis + y.ndim]`` (or broadcast
            to it).
        axis (int): The axis of ``x`` where the first axis of ``y`` goes.

    Returns:
        ~chainer.Variable: Output of the shape of ``x``.

    .. admonition:: Example

        >>> x = np.zeros((2, 3, 4), np.float32)
        >>> y = np.arange(3, dtype=np.float32)
        >>> F.bias(x, y, axis=1)[1, :, 0].array
        array([0., 1., 2.], dtype=float32)
    """
    return basic_math.Add().apply((x, _expand(x, y, axis)))[0]
