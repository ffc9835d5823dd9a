"""Two-dimensional deconvolution (transposed convolution) layer."""
from chainer.functions.connection import deconvolution_2d
from chainer import link
from chainer.links.connection import _link_util
from chainer.links.connection.convolution_2d import _DETERMINISTIC
from chainer.utils import argument


class Deconvolution2D(link.Link):
    """Two-dimensional deconvolution layer (:func:`~chainer.functions.deconvolution_2d`).

    Args:
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
            ``Deconvolution2D(out_channels, ksize)`` means the same.
        out_channels (int): Output channels.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride of the filter.
        pad (int or pair of ints): Padding removed from each side of the output.
        nobias (bool): Whether to leave out the bias.
        outsize (pair of ints or None): Output size; ``None`` picks the smallest.
        initialW: Initializer of ``W`` (``None``: LeCun normal).
        initial_bias: Initializer of ``b`` (``None``: zeros).
        dilate (int or pair of ints): Dilation factor of the filter.
        groups (int): Number of groups the channels are split into.

    Attributes:
        W (~chainer.Parameter): Filter of shape
            ``(in_channels, out_channels // groups, kh, kw)``.
        b (~chainer.Parameter): Bias of shape ``(out_channels,)`` or ``None``.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
                 outsize=None, initialW=None, initial_bias=None, **kwargs):
        super().__init__()
        dilate, groups = argument.parse_kwargs(kwargs, ('dilate', 1), ('groups', 1),
                                               deterministic=_DETERMINISTIC)
        if ksize is None:
            in_channels, out_channels, ksize = None, in_channels, out_channels
        self.ksize = ksize
        self.stride = _link_util.pair(stride)
        self.pad = _link_util.pair(pad)
        self.dilate = _link_util.pair(dilate)
        self.outsize = (None, None) if outsize is None else outsize
        self.out_channels = out_channels
        self.groups = int(groups)
        _link_util.check_groups(in_channels, out_channels, self.groups)
        _link_util.add_weight_and_bias(self, in_channels, out_channels, nobias, initialW,
                                       initial_bias)

    def _initialize_params(self, in_channels):
        _link_util.check_groups(in_channels, self.out_channels, self.groups)
        kh, kw = _link_util.pair(self.ksize)
        self.W.initialize((in_channels, self.out_channels // self.groups, kh, kw))

    def forward(self, x):
        """Applies the deconvolution to ``x`` of shape ``(n, in_channels, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        elif len(x.shape) == 4:
            _link_util.check_size(self, x.shape[1], self.W.shape[0],
                                  'x.shape[1] (input channels)')
        # Chainer keeps (None, None) for "no outsize"; the function takes None for it.
        outsize = None if self.outsize == (None, None) else self.outsize
        return deconvolution_2d.deconvolution_2d(
            x, self.W, self.b, self.stride, self.pad, outsize, dilate=self.dilate,
            groups=self.groups)
