"""Shift: move each group of channels by its own offset within a kernel window."""
from chainer import backend
from chainer import function_node
from chainer.utils import conv_nd
from chainer.utils import type_check


def _group_shifts(kh, kw, dy, dx):
    """The ``(sy, sx)`` offset of each of the ``kh * kw`` channel groups.

    Group ``g`` reads the kernel tap ``g`` in raster order, counted from the
    window's far corner, so that ``y[i, j] = x[i + sy, j + sx]``; the centre tap
    (no shift) is moved to the last group, which also takes the channels left
    over when ``kh * kw`` does not divide them.
    """
    taps = list(range(kh * kw))
    centre, last = len(taps) // 2, len(taps) - 1
    taps[centre], taps[last] = taps[last], taps[centre]
    return [((kh // 2 - t // kw) * dy, (kw // 2 - t % kw) * dx) for t in taps]


class Shift(function_node.FunctionNode):
    """Shifts channel groups of ``(n, c, h, w)`` images (zero filled)."""

    def __init__(self, ksize=3, dilate=1):
        self.kh, self.kw = conv_nd.as_tuple(ksize, 2)
        if self.kh % 2 != 1:
            raise ValueError(f'kh must be odd (shift: ksize={ksize!r})')
        if self.kw % 2 != 1:
            raise ValueError(f'kw must be odd (shift: ksize={ksize!r})')
        self.dy, self.dx = conv_nd.as_tuple(dilate, 2)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            x_type.shape[1] >= self.kh * self.kw,
        )

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        c, h, w = x.shape[1:]
        shifts = _group_shifts(self.kh, self.kw, self.dy, self.dx)
        size = c // len(shifts)
        y = xp.zeros_like(x)
        for g, (sy, sx) in enumerate(shifts):
            stop = c if g == len(shifts) - 1 else (g + 1) * size
            if abs(sy) >= h or abs(sx) >= w:
                continue  # shifted out of the image entirely: stays zero
            # Output rows/cols whose source x[i + sy, j + sx] lies inside the image.
            oy, ox = slice(max(0, -sy), h - max(0, sy)), slice(max(0, -sx), w - max(0, sx))
            iy, ix = slice(max(0, sy), h - max(0, -sy)), slice(max(0, sx), w - max(0, -sx))
            y[:, g * size:stop, oy, ox] = x[:, g * size:stop, iy, ix]
        return y,

    def backward(self, indexes, grad_outputs):
        # The adjoint of a zero-filled shift is the opposite shift: negating the
        # dilation negates every group's offset.
        return Shift((self.kh, self.kw), (-self.dy, -self.dx)).apply(grad_outputs)


def shift(x, ksize=3, dilate=1):
    """Shifts the channels of images, group by group, over a kernel window.

    The channels are split into ``kh * kw`` groups of ``c // (kh * kw)`` (the
    last group also takes the remainder); each group is moved by one offset of
    the dilated ``kh x kw`` window, filling with zeros, so that a following
    1x1 convolution sees every tap of the window:

    .. math::
        y_{n, c, i, j} = x_{n, c, i + s_y(g), j + s_x(g)}, \\quad g = \\text{group of } c,

    with :math:`s_y, s_x` ranging over :math:`\\{-k/2, \\dots, k/2\\} \\times`
    ``dilate`` (the unshifted group is the last one).

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, h, w)`` with ``c >= kh * kw``.
        ksize (int or pair of ints): Window size ``(kh, kw)``; both odd.
        dilate (int or pair of ints): Spacing ``(dy, dx)`` of the window taps.

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.arange(9 * 4, dtype=np.float32).reshape(1, 9, 2, 2)
        >>> y = F.shift(x)
        >>> y.shape
        (1, 9, 2, 2)
        >>> y.array[0, 0]                 # group 0 moves up and left by one
        array([[3., 0.],
               [0., 0.]], dtype=float32)
        >>> bool((y.array[0, 8] == x[0, 8]).all())   # the last group stays
        True
    """
    return Shift(ksize, dilate).apply((x,))[0]
