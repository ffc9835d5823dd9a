"""Two-dimensional deconvolution (transposed convolution)."""
from chainer.functions.connection import _conv_core
from chainer.functions.connection import convolution_2d


class Deconvolution2DFunction(_conv_core.Spec2D, _conv_core.Deconvolution):
    """2-D deconvolution, ``y = conv^T(x, W) + b``.

    Args:
        stride, pad (int or pair of ints): Stride and padding of the matching convolution.
        outsize (pair of ints): Output ``(height, width)``, or ``None`` for the smallest.
        dilate (int or pair of ints): Spacing between kernel taps (keyword only).
        groups (int): Number of channel groups (keyword only).
    """

    _func = 'deconvolution_2d'
    _size_error = RuntimeError
    outh = _conv_core.axis_attribute('outs', 0)
    outw = _conv_core.axis_attribute('outs', 1)

    def __init__(self, stride=1, pad=0, outsize=None, **kwargs):
        dilate, groups = _conv_core.parse_kwargs_2d(type(self).__name__, kwargs)
        _conv_core.set_spec(self, 2, stride, pad, dilate, groups, ValueError)
        self.outs = None if outsize is None else _conv_core.int_tuple(
            self._func, 'outsize', outsize, 2, 1, ValueError)

    def _convolution(self, outs):
        return _conv_core.with_outs(convolution_2d.Convolution2DFunction(
            self.stride, self.pad, self.cover_all, dilate=self.dilate, groups=self.groups),
            outs)

    def _grad_w(self, w_shape, w_dtype):
        conv = convolution_2d.Convolution2DFunction(
            self.stride, self.pad, self.cover_all, dilate=self.dilate, groups=self.groups)
        return convolution_2d.Convolution2DGradW(conv, w_shape, w_dtype)


def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, **kwargs):
    """Two-dimensional deconvolution (transposed convolution).

    The adjoint in ``x`` of :func:`convolution_2d`: each input pixel spreads its value, times
    the kernel, over the output window it would have been computed from. For ``x`` of shape
    ``(n, c_I, h, w)`` and ``W`` of shape ``(c_I, c_O / groups, k_H, k_W)``, the output height
    is ``s_Y (h - 1) + (k_H - 1) d_Y + 1 - 2 p_H`` (and likewise the width) unless ``outsize``
    says otherwise (it may be one larger per stride step, as when the matching convolution
    used ``cover_all``).

    Args:
        x (~chainer.Variable or N-dimensional array): Input ``(n, c_I, h, w)``.
        W (~chainer.Variable or N-dimensional array): Filters ``(c_I, c_O / groups, k_H, k_W)``.
        b (~chainer.Variable or N-dimensional array): Bias ``(c_O,)`` of x's dtype, or
            ``None``.
        stride (int or pair of ints): Stride of the matching convolution.
        pad (int or pair of ints): Padding of the matching convolution (cropped off).
        outsize (pair of ints): Output ``(height, width)``, or ``None``.
        dilate (int or pair of ints): Spacing between kernel taps.
        groups (int): Number of channel groups; must divide ``c_I``.

    Returns:
        ~chainer.Variable: Output ``(n, c_O, out_h, out_w)`` of x's dtype.

    .. admonition:: Example

        >>> x = np.ones((1, 1, 2, 2), np.float32)
        >>> W = np.ones((1, 1, 2, 2), np.float32)
        >>> F.deconvolution_2d(x, W).array
        array([[[[1., 2., 1.],
                 [2., 4., 2.],
                 [1., 2., 1.]]]], dtype=float32)
    """
    dilate, groups = _conv_core.parse_kwargs_2d('deconvolution_2d', kwargs)
    node = Deconvolution2DFunction(stride, pad, outsize, dilate=dilate, groups=groups)
    return node.apply((x, W) if b is None else (x, W, b))[0]
