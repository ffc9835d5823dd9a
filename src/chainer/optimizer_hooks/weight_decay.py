"""L2 regularization as an optimizer hook."""
from chainer.backends import cuda
from chainer.optimizer_hooks import _regularizer


class WeightDecay(_regularizer.Regularizer):
    """Adds ``rate * param`` to each gradient (L2 regularization).

    Args:
        rate (float): Coefficient of the decay.

    Attributes:
        rate (float): Coefficient of the decay.
        timing (str): ``'pre'``: runs before the update.
    """

    name = 'WeightDecay'

    def _add(self, xp, p, g, rate):
        if xp is cuda.cupy:
            cuda.elementwise('T p, T decay', 'T g', 'g += decay * p', 'weight_decay')(p, rate, g)
        else:
            g += rate * p
