"""Two-dimensional locally connected layer (unshared convolution)."""
from chainer.functions.connection import local_convolution_2d
from chainer import initializers
from chainer import link
from chainer.links.connection import _link_util
from chainer.utils import conv
from chainer import variable


class LocalConvolution2D(link.Link):
    """Locally connected layer (:func:`~chainer.functions.local_convolution_2d`).

    Like a convolution, but every output position has its own filter.

    Args:
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
        out_channels (int): Output channels.
        in_size (int, pair of ints or None): Input height and width; ``None`` takes
            them from the first input.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride of the filter.
        nobias (bool): Whether to leave out the bias.
        initialW: Initializer of ``W`` (``None``: LeCun normal).
        initial_bias: Initializer of ``b`` (``None``: zeros).

    Attributes:
        W (~chainer.Parameter): Filters of shape
            ``(out_channels, out_h, out_w, in_channels, kh, kw)``.
        b (~chainer.Parameter): Bias of shape ``(out_channels, out_h, out_w)`` or ``None``.
    """

    def __init__(self, in_channels, out_channels, in_size=None, ksize=None, stride=1,
                 nobias=False, initialW=None, initial_bias=None, **kwargs):
        super().__init__()
        self.ksize = _link_util.pair(ksize)
        self.stride = _link_util.pair(stride)
        self.nobias = nobias
        self.out_channels = out_channels
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(initialW))
            if nobias:
                self.b = None
            else:
                if initial_bias is None:
                    initial_bias = 0
                self.b = variable.Parameter(initializers._get_initializer(initial_bias))
            if in_channels is not None and in_size is not None:
                self._initialize_params(in_channels, _link_util.pair(in_size))

    def _initialize_params(self, in_channels, in_size):
        out_h, out_w = (conv.get_conv_outsize(s, k, st, 0)
                        for s, k, st in zip(in_size, self.ksize, self.stride))
        self.W.initialize((self.out_channels, out_h, out_w, in_channels) + self.ksize)
        if self.b is not None:
            self.b.initialize((self.out_channels, out_h, out_w))

    def forward(self, x):
        """Applies the layer to ``x`` of shape ``(n, in_channels, h, w)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1], x.shape[2:])
        elif len(x.shape) == 4:
            _link_util.check_size(self, x.shape[1], self.W.shape[3],
                                  'x.shape[1] (input channels)')
        return local_convolution_2d.local_convolution_2d(x, self.W, self.b, self.stride)
