"""Extract convolution patches of an image batch into the channel axis."""
from chainer import function_node
from chainer.utils import conv
from chainer.utils import conv_nd
from chainer.utils import type_check


class Im2Col(function_node.FunctionNode):
    """Turns ``(n, c, h, w)`` images into ``(n, c * kh * kw, out_h, out_w)`` patches."""

    def __init__(self, ksize, stride, pad, cover_all, dilate):
        self.kh, self.kw = conv_nd.as_tuple(ksize, 2)
        self.sy, self.sx = conv_nd.as_tuple(stride, 2)
        self.ph, self.pw = conv_nd.as_tuple(pad, 2)
        self.dy, self.dx = conv_nd.as_tuple(dilate, 2)
        self.cover_all = cover_all

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)

    def forward(self, inputs):
        x, = inputs
        n, c, h, w = x.shape
        self._in_hw = h, w
        col = conv.im2col_cpu(x, self.kh, self.kw, self.sy, self.sx, self.ph, self.pw,
                              cover_all=self.cover_all, dy=self.dy, dx=self.dx)
        _, _, _, _, out_h, out_w = col.shape
        return col.reshape(n, c * self.kh * self.kw, out_h, out_w),

    def backward(self, indexes, grad_outputs):
        return Im2ColGrad(self).apply(grad_outputs)


class Im2ColGrad(function_node.FunctionNode):
    """Sums patch gradients back into image positions (``col2im``)."""

    def __init__(self, im2col):
        self.im2col = im2col

    def forward(self, inputs):
        gy, = inputs
        f = self.im2col
        n, _, out_h, out_w = gy.shape
        h, w = f._in_hw
        col = gy.reshape(n, gy.shape[1] // (f.kh * f.kw), f.kh, f.kw, out_h, out_w)
        return conv.col2im_cpu(col, f.sy, f.sx, f.ph, f.pw, h, w, f.dy, f.dx),

    def backward(self, indexes, grad_outputs):
        f = self.im2col
        return Im2Col((f.kh, f.kw), (f.sy, f.sx), (f.ph, f.pw), f.cover_all,
                      (f.dy, f.dx)).apply(grad_outputs)


def im2col(x, ksize, stride=1, pad=0, cover_all=False, dilate=1):
    """Extracts the patches a 2-D convolution would see and stacks them as channels.

    For each output position ``(y, x)``, the ``kh x kw`` window of every
    input channel is laid out along the channel axis, so a convolution becomes
    a matrix product over that axis. Output channel ``(k * kh + j) * kw + i``
    holds input channel ``k`` at kernel tap ``(j, i)``.

    The output size follows :func:`~chainer.utils.get_conv_outsize`:
    ``out_h = (h + 2 * ph - (kh - 1) * dy - 1) // sy + 1`` (with
    ``cover_all``, one more window may be added so that every pixel is
    covered), and likewise for ``out_w``.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size ``(kh, kw)``; an int ``k``
            means ``(k, k)``.
        stride (int or pair of ints): Window stride ``(sy, sx)``.
        pad (int or pair of ints): Zero padding ``(ph, pw)`` on each side.
        cover_all (bool): If ``True``, windows cover every input pixel, even
            if that needs extra padding at the end.
        dilate (int or pair of ints): Dilation ``(dy, dx)`` of the window.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c * kh * kw, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> y = F.im2col(x, 2, stride=2)
        >>> y.shape
        (1, 4, 2, 2)
        >>> y.array[0, :, 0, 0]
        array([0., 1., 4., 5.], dtype=float32)
    """
    return Im2Col(ksize, stride, pad, cover_all, dilate).apply((x,))[0]
