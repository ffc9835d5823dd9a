"""Two-dimensional convolution layer."""
from chainer.functions.connection import convolution_2d
from chainer import link
from chainer.links.connection import _link_util
from chainer.utils import argument
from chainer import variable

_DETERMINISTIC = ('deterministic argument is not supported anymore. Use '
                  "chainer.using_config('cudnn_deterministic', value) context where value "
                  'is either `True` or `False`.')


class Convolution2D(link.Link):
    """Two-dimensional convolution layer (:func:`~chainer.functions.convolution_2d`).

    ``Convolution2D(out_channels, ksize)`` (two arguments) or ``in_channels=None``
    creates the weight at the first call, from the input's channels.

    Args:
        in_channels (int or None): Input channels; ``None`` for lazy initialization.
        out_channels (int): Output channels.
        ksize (int or pair of ints): Filter size.
        stride (int or pair of ints): Stride of the filter.
        pad (int or pair of ints): Zero padding on each side.
        nobias (bool): Whether to leave out the bias.
        initialW: Initializer of ``W`` (``None``: LeCun normal).
        initial_bias: Initializer of ``b`` (``None``: zeros).
        dilate (int or pair of ints): Dilation factor of the filter.
        groups (int): Number of groups the channels are split into.

    Attributes:
        W (~chainer.Parameter): Filter of shape
            ``(out_channels, in_channels // groups, kh, kw)``.
        b (~chainer.Parameter): Bias of shape ``(out_channels,)`` or ``None``.

    .. admonition:: Example

        >>> conv = L.Convolution2D(None, 4, 3)
        >>> conv(np.zeros((1, 2, 5, 5), np.float32)).shape
        (1, 4, 3, 3)
    """

    cudnn_fast = False
    x_layout = None

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None, **kwargs):
        super().__init__()
        dilate, groups = argument.parse_kwargs(kwargs, ('dilate', 1), ('groups', 1),
                                               deterministic=_DETERMINISTIC)
        if ksize is None:
            in_channels, out_channels, ksize = None, in_channels, out_channels
        self.ksize = ksize
        self.stride = _link_util.pair(stride)
        self.pad = _link_util.pair(pad)
        self.dilate = _link_util.pair(dilate)
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.groups = int(groups)
        _link_util.check_groups(in_channels, out_channels, self.groups)
        _link_util.add_weight_and_bias(self, in_channels, out_channels, nobias, initialW,
                                       initial_bias)

    def _initialize_params(self, in_channels):
        _link_util.check_groups(in_channels, self.out_channels, self.groups)
        kh, kw = _link_util.pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels // self.groups, kh, kw))

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, **kwargs):
        """Builds the layer around a given filter (and bias); their values are copied.

        Args:
            W (N-dimensional array or ~chainer.Variable): Filter of shape
                ``(out_channels, in_channels // groups, kh, kw)``.
            b: Bias of shape ``(out_channels,)``, or ``None`` (zeros unless ``nobias``).
            stride, pad, nobias: As for the constructor.
            **kwargs: ``dilate`` and ``groups``.
        """
        groups = kwargs.get('groups', 1)
        out_channels, in_per_group, kh, kw = W.shape
        return cls(in_per_group * groups, out_channels, (kh, kw), stride, pad, nobias,
                   initialW=variable.as_array(W),
                   initial_bias=None if b is None else variable.as_array(b), **kwargs)

    @property
    def printable_specs(self):
        yield 'in_channels', self.in_channels
        yield 'out_channels', self.out_channels
        yield 'ksize', self.ksize
        yield 'stride', self.stride
        yield 'pad', self.pad
        yield 'nobias', self.b is None
        yield 'dilate', self.dilate
        yield 'groups', self.groups

    def forward(self, x):
        """Applies the convolution.

        Args:
            x (~chainer.Variable or N-dimensional array): Input of shape
                ``(n, in_channels, h, w)``.

        Returns:
            ~chainer.Variable: Output of shape ``(n, out_channels, out_h, out_w)``.
        """
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        elif len(x.shape) == 4:
            _link_util.check_size(self, x.shape[1], self.W.shape[1] * self.groups,
                                  'x.shape[1] (input channels)')
        return convolution_2d.convolution_2d(x, self.W, self.b, self.stride, self.pad,
                                             dilate=self.dilate, groups=self.groups)
