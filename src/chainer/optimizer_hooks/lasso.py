"""L1 regularization as an optimizer hook."""
from chainer.backends import cuda
from chainer.optimizer_hooks import _regularizer


class Lasso(_regularizer.Regularizer):
    """Adds ``rate * sign(param)`` to each gradient (L1 regularization).

    Args:
        rate (float): Coefficient of the regularization.

    Attributes:
        rate (float): Coefficient of the regularization.
        timing (str): ``'pre'``: runs before the update.
    """

    name = 'Lasso'

    def _add(self, xp, p, g, rate):
        if xp is cuda.cupy:
            cuda.elementwise('T s, T decay', 'T g', 'g += decay * s', 'lasso')(xp.sign(p), rate, g)
        else:
            g += rate * xp.sign(p)
