"""Weight standardization (Qiao et al., 2019) as a link hook."""
import chainer
from chainer.link_hooks import _weight_hook


class WeightStandardization(_weight_hook.WeightHook):
    """Standardizes a link's weight per output unit before each forward.

    Each slice ``W[i]`` (all the weights of output ``i``) is replaced by
    :math:`(W_i - \\mu_i) / \\sqrt{\\sigma_i^2 + \\epsilon}`, differentiably, so the
    gradient reaches the raw weight.

    Args:
        eps (float): Added to the variance.
        weight_name (str): Attribute name of the weight.
        name (str): Key of the hook (default ``'WeightStandardization'``).

    .. admonition:: Example

        >>> from chainer.link_hooks import WeightStandardization
        >>> layer = L.Linear(3, 2).add_hook(WeightStandardization())
        >>> layer(np.ones((1, 3), np.float32)).shape
        (1, 2)
    """

    name = 'WeightStandardization'

    def __init__(self, *, eps=1e-5, weight_name='W', name=None):
        self.eps = eps
        self.weight_name = weight_name
        self._initialized = False
        if name is not None:
            self.name = name

    def transform(self, link, W):
        F = chainer.functions
        axes = tuple(range(1, W.ndim))
        centered = W - F.mean(W, axis=axes, keepdims=True)
        var = F.mean(centered * centered, axis=axes, keepdims=True)
        return centered / F.sqrt(var + self.eps)
