"""Base class of the 2-D pooling functions."""
from chainer.functions.pooling import pooling_nd


class Pooling2D(pooling_nd._PoolingND):
    """:class:`~chainer.functions.pooling.pooling_nd._PoolingND` over two axes.

    Also offers the geometry per axis, as Chainer's 2-D classes do: ``kh, kw``,
    ``sy, sx`` and ``ph, pw``.
    """

    def __init__(self, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
        super().__init__(2, ksize, stride, pad, cover_all, return_indices)

    kh = property(lambda self: self.ksize[0])
    kw = property(lambda self: self.ksize[1])
    sy = property(lambda self: self.stride[0])
    sx = property(lambda self: self.stride[1])
    ph = property(lambda self: self.pad[0])
    pw = property(lambda self: self.pad[1])
