"""Layer normalization layer."""
import numpy

from chainer.functions.normalization import layer_normalization
from chainer import initializers
from chainer import link
from chainer import variable


class LayerNormalization(link.Link):
    """Layer normalization layer (:func:`~chainer.functions.layer_normalization`).

    Args:
        size (int or None): Size of each input vector; ``None`` takes it from the
            first input.
        eps (float): Added to the variance for stability.
        initial_gamma: Initializer of ``gamma`` (``None``: ones).
        initial_beta: Initializer of ``beta`` (``None``: zeros).

    Attributes:
        gamma (~chainer.Parameter): Scale of shape ``(size,)``.
        beta (~chainer.Parameter): Shift of shape ``(size,)``.
    """

    def __init__(self, size=None, eps=1e-6, initial_gamma=None, initial_beta=None):
        super().__init__()
        self.eps = eps
        with self.init_scope():
            self.gamma = variable.Parameter(
                initializers._get_initializer(1 if initial_gamma is None else initial_gamma))
            self.beta = variable.Parameter(
                initializers._get_initializer(0 if initial_beta is None else initial_beta))
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x):
        """Normalizes each row of ``x`` (shape ``(n, size)``)."""
        if self.gamma.array is None:
            self._initialize_params(int(numpy.prod(x.shape[1:])))
        return layer_normalization.layer_normalization(x, self.gamma, self.beta, self.eps)
