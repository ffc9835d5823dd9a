"""Adding a bias that is broadcast along some axes."""
import chainer
from chainer.functions.math import basic_math
from chainer.utils import type_check


def _expand(x, y, axis, func):
    """Reshapes ``y`` so that its axes line up with ``x``'s axes from ``axis`` on."""
    x_shape = x.shape
    y_shape = tuple(y.shape)
    matched = tuple(x_shape[axis:axis + len(y_shape)])
    if chainer.is_debug() and matched != y_shape:
        # Chainer's debug mode asserts an exact match (no broadcasting of y).
        raise AssertionError(
            f'{func}: y.shape {y_shape} must equal x.shape[{axis}:{axis + len(y_shape)}] = '
            f'{matched} (x.shape={x_shape}, axis={axis})')
    y1_shape = (1,) * axis + y_shape + (1,) * (len(x_shape) - axis - len(y_shape))
    if len(y1_shape) != len(x_shape) or any(
            a != b and a != 1 for a, b in zip(y1_shape, x_shape)):
        # InvalidType, as Chainer's (raised by its broadcast_to).
        expect = f'y.shape broadcastable to x.shape[{axis}:{axis + len(y_shape)}]'
        raise type_check.InvalidType(
            expect, f'{y_shape} vs {matched}',
            f'{func}: y of shape {y_shape} does not fit x of shape {x_shape} at axis={axis}\n'
            f'Expect: {expect}\nActual: y.shape = {y_shape}, x.shape[{axis}:] = {matched}')
    return chainer.functions.reshape(y, y1_shape)


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
    return basic_math.Add().apply((x, _expand(x, y, axis, 'bias')))[0]
