"""Deformable two-dimensional convolution layer."""
from chainer.functions.connection import deformable_convolution_2d_sampler
from chainer import initializers
from chainer import link
from chainer.links.connection import _link_util
from chainer.links.connection import convolution_2d
from chainer import variable


class DeformableConvolution2D(link.Chain):
    """Deformable convolution: a convolution that predicts where its taps sample.

    ``offset_conv`` (a :class:`~chainer.links.Convolution2D`) computes the
    offsets from the input; ``deform_conv`` samples the input there and applies
    its filters.

    Args:
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
        out_channels (int): Output channels.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride of the filter.
        pad (int or pair of ints): Zero padding on each side.
        offset_nobias (bool): Whether ``offset_conv`` has no bias.
        offset_initialW: Initializer of ``offset_conv.W``.
        offset_initial_bias: Initializer of ``offset_conv.b``.
        deform_nobias (bool): Whether ``deform_conv`` has no bias.
        deform_initialW: Initializer of ``deform_conv.W`` (``None``: zeros).
        deform_initial_bias: Initializer of ``deform_conv.b``.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 offset_nobias=False, offset_initialW=None, offset_initial_bias=None,
                 deform_nobias=False, deform_initialW=None, deform_initial_bias=None):
        super().__init__()
        kh, kw = _link_util.pair(ksize)
        with self.init_scope():
            self.offset_conv = convolution_2d.Convolution2D(
                in_channels, 2 * kh * kw, ksize, stride, pad, nobias=offset_nobias,
                initialW=offset_initialW, initial_bias=offset_initial_bias)
            self.deform_conv = DeformableConvolution2DSampler(
                in_channels, out_channels, ksize, stride, pad, nobias=deform_nobias,
                initialW=deform_initialW, initial_bias=deform_initial_bias)

    def forward(self, x):
        """Applies the layer to ``x`` of shape ``(n, in_channels, h, w)``."""
        return self.deform_conv(x, self.offset_conv(x))


class DeformableConvolution2DSampler(link.Link):
    """The sampling half of :class:`DeformableConvolution2D`: filters applied at offsets.

    Args:
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
        out_channels (int): Output channels.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride of the filter.
        pad (int or pair of ints): Zero padding on each side.
        nobias (bool): Whether to leave out the bias.
        initialW: Initializer of ``W`` (``None``: zeros).
        initial_bias: Initializer of ``b`` (``None``: zeros).
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        self.ksize = _link_util.pair(ksize)
        self.stride = _link_util.pair(stride)
        self.pad = _link_util.pair(pad)
        self.out_channels = out_channels
        self.initialW = initialW
        if initialW is None:
            # Chainer starts the sampler's filters at zero (unlike Convolution2D's).
            initialW = 0
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(initialW))
            if nobias:
                self.b = None
            else:
                if initial_bias is None:
                    initial_bias = 0
                self.b = variable.Parameter(initializers._get_initializer(initial_bias),
                                            out_channels)
            if in_channels is not None:
                self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        self.W.initialize((self.out_channels, in_channels) + self.ksize)

    def forward(self, x, offset):
        """Samples ``x`` at the taps moved by ``offset`` and applies the filters."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        elif len(x.shape) == 4:
            _link_util.check_size(self, x.shape[1], self.W.shape[1],
                                  'x.shape[1] (input channels)')
        return deformable_convolution_2d_sampler.deformable_convolution_2d_sampler(
            x, offset, self.W, self.b, self.stride, self.pad)
