"""Two-dimensional depthwise convolution."""
import chainer
from chainer.functions import _checks
from chainer.functions.connection.convolution_2d import convolution_2d


def depthwise_convolution_2d(x, W, b=None, stride=1, pad=0):
    """Two-dimensional depthwise convolution.

    Each input channel ``c`` is convolved on its own with ``m`` filters (the channel
    multiplier), giving output channels ``c * m + i``. This is a grouped
    :func:`~chainer.functions.convolution_2d` with one group per input channel.

    Args:
        x (~chainer.Variable or N-dimensional array): Input ``(n, c, h, w)``.
        W (~chainer.Variable or N-dimensional array): Filters ``(m, c, k_H, k_W)``.
        b (~chainer.Variable or N-dimensional array): Bias ``(m * c,)`` or ``None``.
        stride (int or pair of ints): Stride.
        pad (int or pair of ints): Zero padding on both sides.

    Returns:
        ~chainer.Variable: Output ``(n, m * c, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.ones((1, 3, 4, 4), np.float32)
        >>> W = np.ones((2, 3, 3, 3), np.float32)
        >>> F.depthwise_convolution_2d(x, W).shape
        (1, 6, 2, 2)
    """
    if len(_checks.shape_of('depthwise_convolution_2d', 'W', W)) != 4:
        raise ValueError(
            f'depthwise_convolution_2d requires W of shape (multiplier, channels, kh, kw), '
            f'got W of shape {tuple(W.shape)}')
    F = chainer.functions
    multiplier, channels, kh, kw = W.shape
    # (m, c, kh, kw) -> (c * m, 1, kh, kw): group c holds channel c's m filters.
    W = F.reshape(F.transpose(W, (1, 0, 2, 3)), (channels * multiplier, 1, kh, kw))
    return convolution_2d(x, W, b, stride, pad, groups=channels)
