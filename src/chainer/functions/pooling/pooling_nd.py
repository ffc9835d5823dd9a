"""Base class of the N-dimensional pooling functions."""
from chainer import function_node
from chainer.utils import conv_nd
from chainer.utils import type_check


class _PoolingND(function_node.FunctionNode):
    """Holds the window geometry of a pooling over ``ndim`` spatial axes.

    ``ksize``, ``stride`` and ``pad`` become tuples of ``ndim`` ints; ``stride``
    defaults to ``ksize`` (windows that tile the input).
    """

    # Chainer 7.8.1's N-d max and average pooling (which max_pooling_2d also uses) refuse
    # an empty input in their type check; its 2-d average pooling and unpooling accept one.
    _refuse_empty = False

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
        if stride is None:
            stride = ksize
        self.ndim = ndim
        self.ksize = conv_nd.as_tuple(ksize, ndim)
        self.stride = conv_nd.as_tuple(stride, ndim)
        self.pad = conv_nd.as_tuple(pad, ndim)
        self.cover_all = cover_all
        self.return_indices = return_indices

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 1)
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 2 + self.ndim)
        if self._refuse_empty:
            type_check.expect(x_type.size > 0)


