"""Adding a bias that is broadcast along some axes."""
import chainer
from chainer.functions import _checks


def _expand(x, y, axis, func):
    """``y`` reshaped so that its axes line up with ``x``'s from ``axis`` on, and broadcast
    to ``x``'s shape (a mismatch is BroadcastTo's InvalidType, as in Chainer)."""
    x_shape = _checks.shape_of(func, 'x', x)
    y_shape = tuple(_checks.shape_of(func, 'y', y))
    if chainer.is_debug():
        matched = tuple(x_shape[axis:axis + len(y_shape)])
        if matched != y_shape:
            # Chainer's debug mode asserts an exact match (no broadcasting of y).
            raise AssertionError(
                f'{func}: y.shape {y_shape} must equal x.shape[{axis}:{axis + len(y_shape)}] '
                f'= {matched} (x.shape={x_shape}, axis={axis})')
    y1_shape = (1,) * axis + y_shape + (1,) * max(0, len(x_shape) - axis - len(y_shape))
    F = chainer.functions
    return F.broadcast_to(F.reshape(y, y1_shape), x_shape)


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
    # x + y1 with Python's operator, so that an array x meets the Variable y1 as in Chainer
    # (Variable.__radd__, which casts x to y's dtype).
    return x + _expand(x, y, axis, 'bias')
