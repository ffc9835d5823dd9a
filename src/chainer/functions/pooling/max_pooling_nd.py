"""Max pooling over N spatial axes (and its 1-D, 2-D and 3-D forms)."""
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.pooling import _windows
from chainer.functions.pooling import pooling_nd


class MaxPoolingND(pooling_nd._PoolingND):
    """Max pooling over ``ndim`` spatial axes; ``indexes`` holds the winning tap of each window."""

    _indexes = None
    _refuse_empty = True

    def forward(self, inputs):
        x, = inputs
        self._in_dims = x.shape[2:]
        outs = _windows.out_sizes(f'max_pooling_{self.ndim}d', self._in_dims, self.ksize,
                                  self.stride, self.pad, self.cover_all)
        y, self._xpad = _windows.window_max(x, self.ksize, self.stride, self.pad, outs)
        self._y = y
        self._indexes = None
        return y,

    # The winning taps cost as much as the max itself and inference never needs them,
    # so they are found on first use (backward, return_indices) from the padded input
    # and the output, which, like retained arrays, must not be modified in place before.
    @property
    def indexes(self):
        if self._indexes is None and getattr(self, '_xpad', None) is not None:
            self._indexes = _windows.window_argmax(self._xpad, self._y, self.ksize, self.stride)
            self._xpad = self._y = None
        return self._indexes

    @indexes.setter
    def indexes(self, value):
        self._indexes = value

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self).apply(grad_outputs)


class MaxPoolingNDGrad(function_node.FunctionNode):
    """Routes each output gradient to the input element that won its window."""

    def __init__(self, func):
        self.func = func

    def forward(self, inputs):
        gy, = inputs
        f = self.func
        return _windows.scatter(gy, f.indexes, f.ksize, f.stride, f.pad, f._in_dims),

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDWithIndexes(self.func).apply(grad_outputs)


class MaxPoolingNDWithIndexes(function_node.FunctionNode):
    """Picks, in each window, the element at the tap a max pooling chose (linear in ``x``)."""

    def __init__(self, func):
        self.func = func

    def forward(self, inputs):
        x, = inputs
        f = self.func
        return _windows.gather(x, f.indexes, f.ksize, f.stride, f.pad, f.indexes.shape[2:]),

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self.func).apply(grad_outputs)


def max_pooling_nd(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """N-dimensionally spatial max pooling.

    Each output element is the maximum of a window of ``x``; padding never
    wins. The number of spatial axes is ``x.ndim - 2``.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Window size; an int applies to every axis.
        stride (int, tuple of ints or None): Window stride; ``None`` means ``ksize``.
        pad (int or tuple of ints): Padding on each side of each axis.
        cover_all (bool): If ``True``, add output positions until every input
            element is in some window (the output size rounds up).
        return_indices (bool): Also return, per output element, the index of
            the winning element within its (padded, C-ordered) window.

    Returns:
        ~chainer.Variable or tuple: The pooled output, of shape
        ``(n, c, o_1, ..., o_N)``, and with ``return_indices`` also the
        ``int64`` index array of the same shape.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> F.max_pooling_nd(x, 2).array
        array([[[[ 5.,  7.],
                 [13., 15.]]]], dtype=float32)
    """
    ndim = len(_checks.shape_of('max_pooling_nd', 'x', x)[2:])
    func = MaxPoolingND(ndim, ksize, stride, pad, cover_all, return_indices)
    y, = func.apply((x,))
    if return_indices:
        return y, func.indexes
    return y


def max_pooling_1d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """1-dimensional max pooling: :func:`max_pooling_nd` for inputs ``(n, c, w)``."""
    _checks.check_spatial_ndim('max_pooling_1d', x, 1)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_2d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """Spatial max pooling: :func:`max_pooling_nd` for images ``(n, c, h, w)``.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, h, w)``.
        ksize (int or pair of ints): Window size ``(kh, kw)``.
        stride (int, pair of ints or None): Window stride; ``None`` means ``ksize``.
        pad (int or pair of ints): Padding on each side.
        cover_all (bool): Round the output size up so that every pixel is covered.
        return_indices (bool): Also return the index of each window's maximum
            within its window (``ky * kw + kx``).

    Returns:
        ~chainer.Variable or tuple: ``y`` of shape ``(n, c, out_h, out_w)``, and
        with ``return_indices`` the ``int64`` index array.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> y, idx = F.max_pooling_2d(x, 2, return_indices=True)
        >>> idx
        array([[[[3, 3],
                 [3, 3]]]])
    """
    _checks.check_spatial_ndim('max_pooling_2d', x, 2)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_3d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """3-dimensional max pooling: :func:`max_pooling_nd` for inputs ``(n, c, d, h, w)``."""
    _checks.check_spatial_ndim('max_pooling_3d', x, 3)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)
