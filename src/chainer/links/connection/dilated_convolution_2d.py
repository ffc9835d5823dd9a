"""Dilated two-dimensional convolution layer."""
from chainer.functions.connection import dilated_convolution_2d
from chainer import link
from chainer.links.connection import _link_util


class DilatedConvolution2D(link.Link):
    """Dilated convolution layer (:func:`~chainer.functions.dilated_convolution_2d`).

    Args:
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
            ``DilatedConvolution2D(out_channels, ksize)`` means the same.
        out_channels (int): Output channels.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride of the filter.
        pad (int or pair of ints): Zero padding on each side.
        dilate (int or pair of ints): Dilation factor of the filter.
        nobias (bool): Whether to leave out the bias.
        initialW: Initializer of ``W`` (``None``: LeCun normal).
        initial_bias: Initializer of ``b`` (``None``: zeros).

    Attributes:
        W (~chainer.Parameter): Filter of shape ``(out_channels, in_channels, kh, kw)``.
        b (~chainer.Parameter): Bias of shape ``(out_channels,)`` or ``None``.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, dilate=1,
                 nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        if ksize is None:
            in_channels, out_channels, ksize = None, in_channels, out_channels
        self.ksize = ksize
        self.stride = _link_util.pair(stride)
        self.pad = _link_util.pair(pad)
        self.dilate = _link_util.pair(dilate)
        self.out_channels = out_channels
        _link_util.add_weight_and_bias(self, in_channels, out_channels, nobias, initialW,
                                       initial_bias)

    def _initialize_params(self, in_channels):
        self.W.initialize((self.out_channels, in_channels) + _link_util.pair(self.ksize))

    def forward(self, x):
        """Applies the dilated convolution to ``x`` of shape ``(n, in_channels, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        elif len(x.shape) == 4:
            _link_util.check_size(self, x.shape[1], self.W.shape[1],
                                  'x.shape[1] (input channels)')
        return dilated_convolution_2d.dilated_convolution_2d(
            x, self.W, self.b, self.stride, self.pad, self.dilate)
