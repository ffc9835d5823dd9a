"""Depthwise two-dimensional convolution layer."""
from chainer.functions.connection import depthwise_convolution_2d
from chainer import initializers
from chainer import link
from chainer.links.connection import _link_util
from chainer import variable


class DepthwiseConvolution2D(link.Link):
    """Depthwise convolution layer (:func:`~chainer.functions.depthwise_convolution_2d`).

    Each input channel is convolved with its own ``channel_multiplier`` filters.

    Args:
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
        channel_multiplier (int): Output channels per input channel.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride of the filter.
        pad (int or pair of ints): Zero padding on each side.
        nobias (bool): Whether to leave out the bias.
        initialW: Initializer of ``W`` (``None``: LeCun normal).
        initial_bias: Initializer of ``b`` (``None``: zeros).

    Attributes:
        W (~chainer.Parameter): Filter of shape ``(channel_multiplier, in_channels, kh, kw)``.
        b (~chainer.Parameter): Bias of shape ``(in_channels * channel_multiplier,)``.
    """

    def __init__(self, in_channels, channel_multiplier, ksize, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        self.ksize = _link_util.pair(ksize)
        self.stride = _link_util.pair(stride)
        self.pad = _link_util.pair(pad)
        self.channel_multiplier = channel_multiplier
        self.nobias = nobias
        if initial_bias is None:
            initial_bias = 0
        self._initial_bias = initial_bias
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(initialW))
            self.b = None if nobias else variable.Parameter(
                initializers._get_initializer(initial_bias))
            if in_channels is not None:
                self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        self.W.initialize((self.channel_multiplier, in_channels) + self.ksize)
        if self.b is not None:
            self.b.initialize(self.channel_multiplier * in_channels)

    def forward(self, x):
        """Applies the depthwise convolution to ``x`` of shape ``(n, in_channels, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        elif len(x.shape) == 4:
            _link_util.check_size(self, x.shape[1], self.W.shape[1],
                                  'x.shape[1] (input channels)')
        return depthwise_convolution_2d.depthwise_convolution_2d(
            x, self.W, self.b, self.stride, self.pad)
