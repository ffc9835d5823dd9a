"""Network-in-network convolution block."""
from chainer.functions.activation import relu
from chainer import link
from chainer.links.connection import convolution_2d
from chainer.utils import argument


class MLPConvolution2D(link.ChainList):
    """A convolution followed by 1x1 convolutions (the "mlpconv" of Network in Network).

    Children ``0, 1, ...``: a ``ksize`` convolution to ``out_channels[0]``, then 1x1
    convolutions to each following size; ``activation`` follows every one but the last.

    Args:
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
            ``MLPConvolution2D(out_channels, ksize)`` means the same.
        out_channels (tuple of ints): Output channels of each convolution.
        ksize (int or pair of ints): Filter size of the first convolution.
        stride (int or pair of ints): Stride of the first convolution.
        pad (int or pair of ints): Padding of the first convolution.
        activation: Function applied between the convolutions.
        conv_init: Initializer of the weights (keyword only).
        bias_init: Initializer of the biases (keyword only).
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 activation=relu.relu, *args, **kwargs):
        conv_init, bias_init = argument.parse_kwargs(
            kwargs, ('conv_init', None), ('bias_init', None),
            wscale='wscale is not supported anymore. Use conv_init and bias_init argument '
                   'to change the scale of initial parameters.')
        if args:
            # The 7th positional argument was wscale in Chainer v1.
            raise TypeError(f'MLPConvolution2D: unexpected positional arguments {args} '
                            '(give conv_init and bias_init by keyword)')
        if ksize is None:
            in_channels, out_channels, ksize = None, in_channels, out_channels
        if len(out_channels) == 0:
            raise ValueError('MLPConvolution2D: out_channels must name at least one layer')
        convs = [convolution_2d.Convolution2D(in_channels, out_channels[0], ksize, stride,
                                              pad, initialW=conv_init,
                                              initial_bias=bias_init)]
        for n_in, n_out in zip(out_channels, out_channels[1:]):
            convs.append(convolution_2d.Convolution2D(n_in, n_out, 1, initialW=conv_init,
                                                      initial_bias=bias_init))
        super().__init__(*convs)
        self.activation = activation

    def forward(self, x):
        """Applies the convolutions to ``x`` of shape ``(n, in_channels, h, w)``."""
        f = self.activation
        for conv in self[:-1]:
            x = f(conv(x))
        return self[-1](x)
