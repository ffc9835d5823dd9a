"""N-dimensional convolution: ``convolution_nd`` and its 1-D and 3-D shorthands."""
from chainer.functions import _checks
from chainer.functions.connection import _conv_core
from chainer.functions.connection import deconvolution_nd


class ConvolutionND(_conv_core.Convolution):
    """Convolution over ``ndim`` spatial axes, ``y = conv(x, W) + b``.

    Args:
        ndim (int): Number of spatial axes.
        stride, pad, dilate (int or tuple of ints): Per spatial axis (an int for all).
        cover_all (bool): Add outputs for the last partial windows.
        groups (int): Number of channel groups.
    """

    _func = 'convolution_nd'

    def __init__(self, ndim, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
        _conv_core.set_spec(self, ndim, stride, pad, dilate, groups)
        self.cover_all = cover_all

    def _deconvolution(self, outs):
        return deconvolution_nd.DeconvolutionND(
            self.ndim, self.stride, self.pad, outs, self.dilate, self.groups)

    def _grad_w(self, w_shape, w_dtype):
        return ConvolutionNDGradW(self, w_shape, w_dtype)


class ConvolutionNDGradW(_conv_core.ConvolutionGradW):
    """Gradient in W of a :class:`ConvolutionND`, from its ``(x, gy)``.

    Args:
        convnd (ConvolutionND): The convolution (its spec is copied).
        w_shape (tuple of ints): Shape of W; read from ``convnd``'s input when omitted.
        w_dtype: dtype of W; likewise.
    """

    _func = 'convolution_nd'

    def __init__(self, convnd, w_shape=None, w_dtype=None):
        if w_shape is None:
            w_shape, w_dtype = convnd.inputs[1].shape, convnd.inputs[1].dtype
        self.ndim = convnd.ndim
        self.stride, self.pad, self.dilate = convnd.stride, convnd.pad, convnd.dilate
        self.cover_all, self.groups = convnd.cover_all, convnd.groups
        self.W_shape = tuple(w_shape)
        self.ksize = self.W_shape[2:]
        self.W_dtype = w_dtype

    def _convolution(self, outs):
        return _conv_core.with_outs(ConvolutionND(
            self.ndim, self.stride, self.pad, self.cover_all, self.dilate, self.groups), outs)

    def _deconvolution(self, outs):
        return deconvolution_nd.DeconvolutionND(
            self.ndim, self.stride, self.pad, outs, self.dilate, self.groups)


def convolution_nd(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """N-dimensional convolution.

    For input ``x`` of shape ``(n, c, d_1, ..., d_N)`` and filters ``W`` of shape
    ``(c_O, c / groups, k_1, ..., k_N)``:

    .. math::

        y_{n, o, \\mathbf{p}} = b_o + \\sum_{c' \\in g(o)} \\sum_{\\mathbf{t}}
            W_{o, c', \\mathbf{t}}\\, x_{n, c', s \\mathbf{p} + d \\mathbf{t} - \\mathrm{pad}}

    where ``g(o)`` are the input channels of output channel ``o``'s group and ``x`` is zero
    outside its extent. Output size per axis: ``(d + 2 pad - (k - 1) dilate - 1) // s + 1``
    (rounded up instead with ``cover_all``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input ``(n, c, d_1, ..., d_N)``.
        W (~chainer.Variable or N-dimensional array): Filters ``(c_O, c / groups, k...)``.
        b (~chainer.Variable or N-dimensional array): Bias ``(c_O,)`` or ``None``.
        stride (int or tuple of ints): Stride per spatial axis.
        pad (int or tuple of ints): Zero padding on both sides of each spatial axis.
        cover_all (bool): Add an output for a last window that runs past the padded input,
            so that every input element is covered.
        dilate (int or tuple of ints): Spacing between kernel taps.
        groups (int): Number of groups; channel ``c'`` only reaches the outputs of its
            group. Must divide both channel counts.

    Returns:
        ~chainer.Variable: Output ``(n, c_O, out_1, ..., out_N)`` of x's dtype.

    .. admonition:: Example

        >>> x = np.ones((1, 1, 4, 4, 4), np.float32)
        >>> W = np.ones((2, 1, 2, 2, 2), np.float32)
        >>> F.convolution_nd(x, W, stride=2).shape
        (1, 2, 2, 2, 2)
    """
    ndim = max(len(_checks.shape_of('convolution_nd', 'x', x)) - 2, 0)
    node = ConvolutionND(ndim, stride, pad, cover_all, dilate, groups)
    return node.apply((x, W) if b is None else (x, W, b))[0]


def convolution_1d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """1-D convolution: :func:`convolution_nd` on ``x`` of shape ``(n, c, w)``.

    Raises:
        ValueError: If ``x`` does not have exactly one spatial axis.
    """
    _checks.check_spatial_ndim('convolution_1d', x, 1)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)


def convolution_3d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """3-D convolution: :func:`convolution_nd` on ``x`` of shape ``(n, c, d, h, w)``.

    Raises:
        ValueError: If ``x`` does not have exactly three spatial axes.
    """
    _checks.check_spatial_ndim('convolution_3d', x, 3)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)
