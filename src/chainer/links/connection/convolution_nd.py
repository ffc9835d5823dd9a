"""N-dimensional convolution layers (ConvolutionND, Convolution1D, Convolution3D)."""
from chainer.functions.connection import convolution_nd
from chainer import link
from chainer.links.connection import _link_util
from chainer.utils import conv_nd
from chainer import variable


class ConvolutionND(link.Link):
    """N-dimensional convolution layer (:func:`~chainer.functions.convolution_nd`).

    Args:
        ndim (int): Number of spatial axes.
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
            ``ConvolutionND(ndim, out_channels, ksize)`` means the same.
        out_channels (int): Output channels.
        ksize (int or tuple of ints): Filter size.
        stride (int or tuple of ints): Stride of the filter.
        pad (int or tuple of ints): Zero padding on each side.
        nobias (bool): Whether to leave out the bias.
        initialW: Initializer of ``W`` (``None``: LeCun normal).
        initial_bias: Initializer of ``b`` (``None``: zeros).
        cover_all (bool): Whether to cover every input element with the last window.
        dilate (int or tuple of ints): Dilation factor of the filter.
        groups (int): Number of groups the channels are split into.

    Attributes:
        W (~chainer.Parameter): Filter of shape
            ``(out_channels, in_channels // groups) + ksize``.
        b (~chainer.Parameter): Bias of shape ``(out_channels,)`` or ``None``.
    """

    _ndim = None    # fixed by the subclasses, whose constructors take no ndim

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None, cover_all=False, dilate=1,
                 groups=1):
        super().__init__()
        if ksize is None:
            in_channels, out_channels, ksize = None, in_channels, out_channels
        self.out_channels = out_channels
        self.ksize = conv_nd.as_tuple(ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = conv_nd.as_tuple(dilate, ndim)
        self.groups = int(groups)
        _link_util.check_groups(in_channels, out_channels, self.groups)
        _link_util.add_weight_and_bias(self, in_channels, out_channels, nobias, initialW,
                                       initial_bias)

    def _initialize_params(self, in_channels):
        _link_util.check_groups(in_channels, self.out_channels, self.groups)
        self.W.initialize((self.out_channels, in_channels // self.groups) + self.ksize)

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, **kwargs):
        """Builds the layer around a given filter (and bias); their values are copied.

        Args:
            W (N-dimensional array or ~chainer.Variable): Filter of shape
                ``(out_channels, in_channels // groups, k_1, ..., k_N)``.
            b: Bias of shape ``(out_channels,)``, or ``None`` (zeros unless ``nobias``).
            stride, pad, nobias: As for the constructor.
            **kwargs: ``cover_all``, ``dilate`` and ``groups``.
        """
        groups = kwargs.get('groups', 1)
        out_channels, in_per_group = W.shape[:2]
        ksize = tuple(W.shape[2:])
        args = (in_per_group * groups, out_channels, ksize, stride, pad, nobias)
        if cls._ndim is None:
            args = (len(ksize),) + args
        return cls(*args, initialW=variable.as_array(W),
                   initial_bias=None if b is None else variable.as_array(b), **kwargs)

    def forward(self, x):
        """Applies the convolution to ``x`` of shape ``(n, in_channels, d_1, ..., d_N)``."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        elif len(x.shape) == self.W.ndim:
            _link_util.check_size(self, x.shape[1], self.W.shape[1] * self.groups,
                                  'x.shape[1] (input channels)')
        return convolution_nd.convolution_nd(
            x, self.W, self.b, self.stride, self.pad, cover_all=self.cover_all,
            dilate=self.dilate, groups=self.groups)


class Convolution1D(ConvolutionND):
    """One-dimensional convolution layer: :class:`ConvolutionND` with ``ndim=1``."""

    _ndim = 1

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, cover_all, dilate, groups)


class Convolution3D(ConvolutionND):
    """Three-dimensional convolution layer: :class:`ConvolutionND` with ``ndim=3``."""

    _ndim = 3

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, cover_all, dilate, groups)
