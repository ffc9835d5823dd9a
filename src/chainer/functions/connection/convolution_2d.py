"""Two-dimensional convolution."""
from chainer.functions.connection import _conv_core
from chainer.functions.connection import deconvolution_2d

class Convolution2DFunction(_conv_core.Spec2D, _conv_core.Convolution):
    """2-D convolution, ``y = conv(x, W) + b``.

    Args:
        stride, pad (int or pair of ints): Stride and zero padding (an int for both axes).
        cover_all (bool): Add outputs for the last partial windows.
        dilate (int or pair of ints): Spacing between kernel taps (keyword only).
        groups (int): Number of channel groups (keyword only).
        cudnn_fast (bool): Chainer's request for cuDNN's fast, layout-changing mode
            (keyword only); rechainer uses no cuDNN, so ``True`` fails when the node runs.
    """

    _func = 'convolution_2d'

    def __init__(self, stride=1, pad=0, cover_all=False, **kwargs):
        self.cudnn_fast = kwargs.pop('cudnn_fast', False)
        dilate, groups = _conv_core.parse_kwargs_2d(type(self).__name__, kwargs)
        _conv_core.set_spec(self, 2, stride, pad, dilate, groups, ValueError)
        self.cover_all = cover_all

    def forward(self, inputs):
        if self.cudnn_fast:
            # As in Chainer on the CPU; rechainer has no cuDNN path on the GPU either.
            raise RuntimeError("convolution_2d: 'cudnn_fast' can't be used without cuDNN, "
                               'which rechainer does not use (on the CPU or the GPU)')
        return super().forward(inputs)

    def _deconvolution(self, outs):
        return deconvolution_2d.Deconvolution2DFunction(
            self.stride, self.pad, outs, dilate=self.dilate, groups=self.groups)

    def _grad_w(self, w_shape, w_dtype):
        return Convolution2DGradW(self, w_shape, w_dtype)


class Convolution2DGradW(_conv_core.Spec2D, _conv_core.ConvolutionGradW):
    """Gradient in W of a :class:`Convolution2DFunction`, from its ``(x, gy)``.

    Args:
        conv2d (Convolution2DFunction): The convolution (its spec is copied).
        w_shape (tuple of ints): Shape of W.
        w_dtype: dtype of W.
        w_layout: Accepted for compatibility; unused.
    """

    _func = 'convolution_2d'

    def __init__(self, conv2d, w_shape, w_dtype, w_layout=None):
        self.stride, self.pad, self.dilate = conv2d.stride, conv2d.pad, conv2d.dilate
        self.cover_all, self.groups = conv2d.cover_all, conv2d.groups
        self.W_shape = tuple(w_shape)
        self.kh, self.kw = self.W_shape[2:]
        self.W_dtype = w_dtype
        self.w_layout = w_layout

    def _convolution(self, outs):
        return _conv_core.with_outs(Convolution2DFunction(
            self.stride, self.pad, self.cover_all, dilate=self.dilate, groups=self.groups),
            outs)

    def _deconvolution(self, outs):
        return deconvolution_2d.Deconvolution2DFunction(
            self.stride, self.pad, outs, dilate=self.dilate, groups=self.groups)


def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, **kwargs):
    """Two-dimensional convolution.

    For input ``x`` of shape ``(n, c, h, w)`` and filters ``W`` of shape
    ``(c_O, c / groups, k_H, k_W)``:

    .. math::

        y_{n, o, i, j} = b_o + \\sum_{c' \\in g(o)} \\sum_{t, u}
            W_{o, c', t, u}\\, x_{n, c', s_Y i + d_Y t - p_H, s_X j + d_X u - p_W}

    where ``g(o)`` are the input channels of output channel ``o``'s group and ``x`` is zero
    outside the image. Output height ``(h + 2 p_H - (k_H - 1) d_Y - 1) // s_Y + 1`` (rounded up
    instead with ``cover_all``), and likewise the width.

    Args:
        x (~chainer.Variable or N-dimensional array): Input ``(n, c, h, w)``.
        W (~chainer.Variable or N-dimensional array): Filters ``(c_O, c / groups, k_H, k_W)``.
        b (~chainer.Variable or N-dimensional array): Bias ``(c_O,)`` of x's dtype, or
            ``None``.
        stride (int or pair of ints): Stride ``(s_Y, s_X)``.
        pad (int or pair of ints): Zero padding ``(p_H, p_W)`` on both sides.
        cover_all (bool): Add an output for a last window that runs past the padded image,
            so that every pixel is covered.
        dilate (int or pair of ints): Spacing ``(d_Y, d_X)`` between kernel taps.
        groups (int): Number of groups; channel ``c'`` only reaches the outputs of its
            group. Must divide both channel counts.
        cudnn_fast (bool): Accepted for compatibility; ``True`` raises ``RuntimeError``, as
            Chainer did on the CPU (rechainer uses no cuDNN).

    Returns:
        ~chainer.Variable: Output ``(n, c_O, out_h, out_w)`` of x's dtype.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> W = np.ones((1, 1, 2, 2), np.float32)
        >>> F.convolution_2d(x, W, stride=2).array
        array([[[[10., 18.],
                 [42., 50.]]]], dtype=float32)
    """
    cudnn_fast = kwargs.pop('cudnn_fast', False)
    dilate, groups = _conv_core.parse_kwargs_2d('convolution_2d', kwargs)
    node = Convolution2DFunction(stride, pad, cover_all, dilate=dilate, groups=groups,
                                 cudnn_fast=cudnn_fast)
    return node.apply((x, W) if b is None else (x, W, b))[0]
