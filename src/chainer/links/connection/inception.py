"""Inception module of GoogLeNet."""
from chainer.functions.activation import relu
from chainer.functions.array import concat
from chainer.functions.pooling import max_pooling_nd
from chainer import link
from chainer.links.connection import convolution_2d


class Inception(link.Chain):
    """Inception module: 1x1, 3x3 and 5x5 convolutions and a pooled projection, concatenated.

    Output channels: ``out1 + out3 + out5 + proj_pool``; the spatial size is kept.

    Args:
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
        out1 (int): Output channels of the 1x1 path (``conv1``).
        proj3 (int): Channels of the 1x1 projection before the 3x3 convolution.
        out3 (int): Output channels of the 3x3 path (``conv3``).
        proj5 (int): Channels of the 1x1 projection before the 5x5 convolution.
        out5 (int): Output channels of the 5x5 path (``conv5``).
        proj_pool (int): Output channels of the 1x1 projection after 3x3 max pooling.
        conv_init: Initializer of the convolution weights.
        bias_init: Initializer of the biases.
    """

    def __init__(self, in_channels, out1, proj3, out3, proj5, out5, proj_pool,
                 conv_init=None, bias_init=None):
        super().__init__()
        conv = convolution_2d.Convolution2D
        init = dict(initialW=conv_init, initial_bias=bias_init)
        with self.init_scope():
            self.conv1 = conv(in_channels, out1, 1, **init)
            self.proj3 = conv(in_channels, proj3, 1, **init)
            self.conv3 = conv(proj3, out3, 3, pad=1, **init)
            self.proj5 = conv(in_channels, proj5, 1, **init)
            self.conv5 = conv(proj5, out5, 5, pad=2, **init)
            self.projp = conv(in_channels, proj_pool, 1, **init)

    def forward(self, x):
        """Applies the module to ``x`` of shape ``(n, in_channels, h, w)``."""
        out1 = self.conv1(x)
        out3 = self.conv3(relu.relu(self.proj3(x)))
        out5 = self.conv5(relu.relu(self.proj5(x)))
        pool = self.projp(max_pooling_nd.max_pooling_2d(x, 3, stride=1, pad=1))
        return relu.relu(concat.concat((out1, out3, out5, pool), axis=1))
