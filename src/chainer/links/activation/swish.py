"""Swish activation layer."""
from chainer.functions.activation import swish
from chainer import initializers
from chainer import link
from chainer import variable


class Swish(link.Link):
    """Swish (:func:`~chainer.functions.swish`): :math:`x \\sigma(\\beta x)`, learnt ``beta``.

    Args:
        beta_shape (tuple of ints or None): Shape of ``beta`` (it lines up with the
            input's axes from axis 1 on); ``None`` takes ``x.shape[1:]`` at the first call.
        beta_init: Initial ``beta`` (a scalar, an array or an initializer).
    """

    def __init__(self, beta_shape, beta_init=1.0):
        super().__init__()
        with self.init_scope():
            self.beta = variable.Parameter(initializers._get_initializer(beta_init))
            if beta_shape is not None:
                self.beta.initialize(beta_shape)

    def forward(self, x):
        """Applies swish to ``x``."""
        if self.beta.array is None:
            self.beta.initialize(x.shape[1:])
        return swish.swish(x, self.beta)
