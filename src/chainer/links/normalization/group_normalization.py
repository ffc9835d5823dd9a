"""Group normalization layer."""
from chainer.functions.normalization import group_normalization
from chainer import initializers
from chainer import link
from chainer import variable


class GroupNormalization(link.Link):
    """Group normalization layer (:func:`~chainer.functions.group_normalization`).

    Args:
        groups (int): Number of channel groups normalized together.
        size (int or None): Number of channels; ``None`` takes it from the first input.
        eps (float): Added to the variance for stability.
        initial_gamma: Initializer of ``gamma`` (``None``: ones).
        initial_beta: Initializer of ``beta`` (``None``: zeros).

    Attributes:
        gamma (~chainer.Parameter): Scale of shape ``(size,)``.
        beta (~chainer.Parameter): Shift of shape ``(size,)``.
    """

    def __init__(self, groups, size=None, eps=1e-5, initial_gamma=None, initial_beta=None):
        super().__init__()
        self.groups = groups
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
        """Normalizes ``x`` of shape ``(n, size, ...)`` within each group of channels."""
        if self.gamma.array is None:
            if len(x.shape) < 2:
                raise ValueError('GroupNormalization: the input must have a channel axis '
                                 f'(ndim >= 2), got shape {x.shape}')
            self._initialize_params(x.shape[1])
        return group_normalization.group_normalization(x, self.groups, self.gamma, self.beta,
                                                       self.eps)
