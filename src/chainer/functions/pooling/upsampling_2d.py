"""Upsampling with the indices of a max pooling (unpooling by argmax)."""
from chainer import backend
from chainer import function_node
from chainer.functions.loss import _common
from chainer.functions.pooling import _windows
from chainer.functions.pooling import pooling_2d
from chainer.utils import conv
from chainer.utils import conv_nd
from chainer.utils import type_check


class Upsampling2D(pooling_2d.Pooling2D):
    """Puts each element at the window tap given by ``indexes``; zeros elsewhere."""

    def __init__(self, indexes, ksize, stride=None, pad=0, outsize=None, cover_all=True):
        super().__init__(ksize, stride, pad, cover_all)
        self.indexes = indexes
        self.outh, self.outw = (None, None) if outsize is None else conv_nd.as_tuple(outsize, 2)

    def check_type_forward(self, in_types):
        super().check_type_forward(in_types)
        type_check.expect(in_types[0].shape == self.indexes.shape)

    def forward(self, inputs):
        x, = inputs
        if self.indexes.dtype.kind not in 'iu':
            # (IndexError, as Chainer 7.8.1's indexing with them raises)
            raise IndexError(f'upsampling_2d: indexes must be integers (the taps that '
                             f'max_pooling_2d returns), got {self.indexes.dtype}')
        taps = self.ksize[0] * self.ksize[1]
        ind = self.indexes
        if ind.size and _common.should_check_values(backend.get_array_module(ind)) and \
                (int(ind.min()) < 0 or int(ind.max()) >= taps):
            # (IndexError, as Chainer 7.8.1's indexing with them raises)
            bad = int(ind.min()) if int(ind.min()) < 0 else int(ind.max())
            raise IndexError(f'upsampling_2d: indexes must lie in [0, {taps}) (the taps of a '
                             f'{self.ksize[0]}x{self.ksize[1]} window), got {bad}')
        self._in_dims = x.shape[2:]
        if self.outh is None:
            outs = tuple(conv.get_deconv_outsize(d, k, s, p, self.cover_all)
                         for d, k, s, p in zip(self._in_dims, self.ksize, self.stride, self.pad))
        else:
            outs = (self.outh, self.outw)
        self._outs = outs
        return _windows.scatter(x, self.indexes, self.ksize, self.stride, self.pad, outs),

    def backward(self, indexes, grad_outputs):
        return Upsampling2DGrad(self).apply(grad_outputs)


class Upsampling2DGrad(function_node.FunctionNode):
    """Reads, from each window of the gradient, the tap ``indexes`` names."""

    def __init__(self, upsampling2d):
        self.func = upsampling2d

    def forward(self, inputs):
        f = self.func
        return _windows.gather(inputs[0], f.indexes, f.ksize, f.stride, f.pad, f._in_dims),

    def backward(self, indexes, grad_outputs):
        f = self.func
        return Upsampling2D(f.indexes, f.ksize, f.stride, f.pad, f._outs,
                            f.cover_all).apply(grad_outputs)


def upsampling_2d(x, indexes, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Upsampling using pooling indices.

    The inverse of :func:`~chainer.functions.max_pooling_2d` in the sense of
    SegNet: each element of ``x`` goes to the position its window's maximum
    came from (``indexes``, as ``max_pooling_2d(..., return_indices=True)``
    returns them); every other output element is zero.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, h, w)``.
        indexes (N-dimensional array): Integer tap index ``ky * kw + kx`` per
            element of ``x``, of the same shape.
        ksize (int or pair of ints): Window size of the max pooling.
        stride (int, pair of ints or None): Its stride; ``None`` means ``ksize``.
        pad (int or pair of ints): Its padding.
        outsize (None or pair of ints): Output size ``(out_h, out_w)``; by
            default :func:`~chainer.utils.conv.get_deconv_outsize` per axis.
        cover_all (bool): Whether the max pooling used ``cover_all``.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c, out_h, out_w)``.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> y, idx = F.max_pooling_2d(x, 2, return_indices=True)
        >>> F.upsampling_2d(y, idx, 2, outsize=(4, 4)).array[0, 0, :2]
        array([[0., 0., 0., 0.],
               [0., 5., 0., 7.]], dtype=float32)
    """
    return Upsampling2D(indexes, ksize, stride, pad, outsize, cover_all).apply((x,))[0]
