"""Two-dimensional dilated convolution (a 2-D convolution with spaced kernel taps)."""
from chainer.functions.connection.convolution_2d import convolution_2d


def dilated_convolution_2d(x, W, b=None, stride=1, pad=0, dilate=1, cover_all=False):
    """Two-dimensional dilated convolution.

    :func:`~chainer.functions.convolution_2d` whose kernel taps are ``dilate`` pixels apart,
    so a ``k x k`` kernel sees a ``((k - 1) dilate + 1)``-wide window.

    Args:
        x (~chainer.Variable or N-dimensional array): Input ``(n, c, h, w)``.
        W (~chainer.Variable or N-dimensional array): Filters ``(c_O, c, k_H, k_W)``.
        b (~chainer.Variable or N-dimensional array): Bias ``(c_O,)`` or ``None``.
        stride (int or pair of ints): Stride.
        pad (int or pair of ints): Zero padding on both sides.
        dilate (int or pair of ints): Spacing between kernel taps.
        cover_all (bool): Add outputs for the last partial windows.

    Returns:
        ~chainer.Variable: Output ``(n, c_O, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.arange(25, dtype=np.float32).reshape(1, 1, 5, 5)
        >>> W = np.ones((1, 1, 2, 2), np.float32)
        >>> F.dilated_convolution_2d(x, W, dilate=2).shape
        (1, 1, 3, 3)
    """
    return convolution_2d(x, W, b, stride, pad, cover_all, dilate=dilate)
