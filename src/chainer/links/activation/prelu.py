"""Parametric ReLU layer."""
from chainer.functions.activation import prelu
from chainer import initializers
from chainer import link
from chainer import variable


class PReLU(link.Link):
    """Parametric ReLU (:func:`~chainer.functions.prelu`) with a learnt slope ``W``.

    Args:
        shape (tuple of ints): Shape of ``W``; it lines up with the input's axes
            from axis 1 on (``()``: one slope for everything).
        init: Initial slope (a scalar, an array or an initializer).
    """

    def __init__(self, shape=(), init=0.25):
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(initializers._get_initializer(init), shape)

    def forward(self, x):
        """Returns ``x`` where positive and ``W * x`` elsewhere."""
        return prelu.prelu(x, self.W)
