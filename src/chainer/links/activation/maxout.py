"""Maxout layer."""
from chainer.functions.activation import maxout
from chainer import initializers
from chainer import link
from chainer.links.connection import linear


class Maxout(link.Chain):
    """Maxout layer: the maximum over ``pool_size`` linear units per output.

    Args:
        in_size (int): Input size.
        out_size (int): Output size.
        pool_size (int): Number of linear units each output is the maximum of.
        initialW: Initializer of the weight; an array may have shape
            ``(out_size, pool_size, in_size)`` (``None``: LeCun normal).
        initial_bias: Initializer of the bias; an array may have shape
            ``(out_size, pool_size)`` (``None``: no bias).

    Attributes:
        linear (~chainer.links.Linear): The ``in_size -> out_size * pool_size`` layer.
    """

    def __init__(self, in_size, out_size, pool_size, initialW=None, initial_bias=0):
        super().__init__()
        n_units = out_size * pool_size
        if initializers._is_array(initialW):
            initialW = initialW.reshape(n_units, in_size)
        if initializers._is_array(initial_bias):
            initial_bias = initial_bias.reshape(n_units)
        with self.init_scope():
            self.linear = linear.Linear(in_size, n_units, nobias=initial_bias is None,
                                        initialW=initialW, initial_bias=initial_bias)
        self.out_size = out_size
        self.pool_size = pool_size

    def forward(self, x):
        """Applies the layer to ``x`` of shape ``(n, in_size)``."""
        return maxout.maxout(self.linear(x), self.pool_size)
