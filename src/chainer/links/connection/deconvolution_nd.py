"""N-dimensional deconvolution layers (DeconvolutionND, Deconvolution1D, Deconvolution3D)."""
from chainer.functions.connection import deconvolution_nd
from chainer import link
from chainer.links.connection import _link_util
from chainer.utils import conv_nd


class DeconvolutionND(link.Link):
    """N-dimensional deconvolution layer (:func:`~chainer.functions.deconvolution_nd`).

    Args:
        ndim (int): Number of spatial axes.
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
            ``DeconvolutionND(ndim, out_channels, ksize)`` means the same.
        out_channels (int): Output channels.
        ksize (int or tuple of ints): Filter size.
        stride (int or tuple of ints): Stride of the filter.
        pad (int or tuple of ints): Padding removed from each side of the output.
        nobias (bool): Whether to leave out the bias.
        outsize (tuple of ints or None): Output size; ``None`` picks the smallest.
        initialW: Initializer of ``W`` (``None``: LeCun normal).
        initial_bias: Initializer of ``b`` (``None``: zeros).
        dilate (int or tuple of ints): Dilation factor of the filter.
        groups (int): Number of groups the channels are split into.

    Attributes:
        W (~chainer.Parameter): Filter of shape
            ``(in_channels, out_channels // groups) + ksize``.
        b (~chainer.Parameter): Bias of shape ``(out_channels,)`` or ``None``.
    """

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None, dilate=1,
                 groups=1):
        super().__init__()
        if ksize is None:
            in_channels, out_channels, ksize = None, in_channels, out_channels
        self.out_channels = out_channels
        self.ksize = conv_nd.as_tuple(ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.outsize = outsize
        self.dilate = conv_nd.as_tuple(dilate, ndim)
        self.groups = int(groups)
        _link_util.check_groups(in_channels, out_channels, self.groups)
        _link_util.add_weight_and_bias(self, in_channels, out_channels, nobias, initialW,
                                       initial_bias)

    def _initialize_params(self, in_channels):
        _link_util.check_groups(in_channels, self.out_channels, self.groups)
        self.W.initialize((in_channels, self.out_channels // self.groups) + self.ksize)

    def forward(self, x):
        """Applies the deconvolution to ``x`` of shape ``(n, in_channels, d_1, ..., d_N)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        elif len(x.shape) == self.W.ndim:
            _link_util.check_size(self, x.shape[1], self.W.shape[0],
                                  'x.shape[1] (input channels)')
        return deconvolution_nd.deconvolution_nd(
            x, self.W, self.b, self.stride, self.pad, outsize=self.outsize,
            dilate=self.dilate, groups=self.groups)


class Deconvolution1D(DeconvolutionND):
    """One-dimensional deconvolution layer: :class:`DeconvolutionND` with ``ndim=1``."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 outsize=None, initialW=None, initial_bias=None, dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)


class Deconvolution3D(DeconvolutionND):
    """Three-dimensional deconvolution layer: :class:`DeconvolutionND` with ``ndim=3``."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 outsize=None, initialW=None, initial_bias=None, dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)
