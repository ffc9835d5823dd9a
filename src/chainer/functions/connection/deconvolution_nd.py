"""N-dimensional deconvolution (transposed convolution) and its 1-D and 3-D shorthands."""
from chainer.functions import _checks
from chainer.functions.connection import _conv_core
from chainer.functions.connection import convolution_nd


class DeconvolutionND(_conv_core.Deconvolution):
    """Deconvolution over ``ndim`` spatial axes, ``y = conv^T(x, W) + b``.

    Args:
        ndim (int): Number of spatial axes.
        stride, pad, dilate (int or tuple of ints): Per spatial axis (an int for all).
        outsize (tuple of ints): Spatial output size, or ``None`` to compute the smallest one.
        groups (int): Number of channel groups.
    """

    _func = 'deconvolution_nd'

    def __init__(self, ndim, stride=1, pad=0, outsize=None, dilate=1, groups=1):
        _conv_core.set_spec(self, ndim, stride, pad, dilate, groups)
        self.outs = None if outsize is None else _conv_core.int_tuple(
            self._func, 'outsize', outsize, ndim, 1)

    def _convolution(self, outs):
        return _conv_core.with_outs(convolution_nd.ConvolutionND(
            self.ndim, self.stride, self.pad, self.cover_all, self.dilate, self.groups), outs)

    def _grad_w(self, w_shape, w_dtype):
        conv = convolution_nd.ConvolutionND(
            self.ndim, self.stride, self.pad, self.cover_all, self.dilate, self.groups)
        return convolution_nd.ConvolutionNDGradW(conv, w_shape, w_dtype)


def deconvolution_nd(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """N-dimensional deconvolution (transposed convolution).

    The adjoint in ``x`` of :func:`convolution_nd`: each input element spreads its value, times
    the kernel, over the output window it would have been computed from. For ``x`` of shape
    ``(n, c_I, d_1, ..., d_N)`` and ``W`` of shape ``(c_I, c_O / groups, k_1, ..., k_N)``, the
    output size per axis is ``s (d - 1) + (k - 1) dilate + 1 - 2 pad`` unless ``outsize`` says
    otherwise (it may be one larger per stride step, as when the matching convolution used
    ``cover_all``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input ``(n, c_I, d_1, ..., d_N)``.
        W (~chainer.Variable or N-dimensional array): Filters ``(c_I, c_O / groups, k...)``.
        b (~chainer.Variable or N-dimensional array): Bias ``(c_O,)`` or ``None``.
        stride (int or tuple of ints): Stride of the matching convolution.
        pad (int or tuple of ints): Padding of the matching convolution (cropped off).
        outsize (tuple of ints): Spatial output size, or ``None``.
        dilate (int or tuple of ints): Spacing between kernel taps.
        groups (int): Number of channel groups; must divide ``c_I``.

    Returns:
        ~chainer.Variable: Output ``(n, c_O, out_1, ..., out_N)`` of x's dtype.

    .. admonition:: Example

        >>> x = np.ones((1, 1, 2, 2, 2), np.float32)
        >>> W = np.ones((1, 3, 2, 2, 2), np.float32)
        >>> F.deconvolution_nd(x, W, stride=2).shape
        (1, 3, 4, 4, 4)
    """
    ndim = max(len(_checks.shape_of('deconvolution_nd', 'x', x)) - 2, 0)
    node = DeconvolutionND(ndim, stride, pad, outsize, dilate, groups)
    return node.apply((x, W) if b is None else (x, W, b))[0]


def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """1-D deconvolution: :func:`deconvolution_nd` on ``x`` of shape ``(n, c, w)``.

    Raises:
        ValueError: If ``x`` does not have exactly one spatial axis.
    """
    _checks.check_spatial_ndim('deconvolution_1d', x, 1)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """3-D deconvolution: :func:`deconvolution_nd` on ``x`` of shape ``(n, c, d, h, w)``.

    Raises:
        ValueError: If ``x`` does not have exactly three spatial axes.
    """
    _checks.check_spatial_ndim('deconvolution_3d', x, 3)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)
