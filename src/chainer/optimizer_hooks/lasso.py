"""L1 regularization as an optimizer hook."""
from chainer import backend
from chainer.backends import cuda


class Lasso:
    """Adds ``rate * sign(param)`` to each gradient (L1 regularization).

    Args:
        rate (float): Coefficient of the regularization.

    Attributes:
        rate (float): Coefficient of the regularization.
        timing (str): ``'pre'``: runs before the update.
    """

    name = 'Lasso'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        rate = self.rate
        if param._loss_scale is not None:
            # The gradient is still scaled here (the rule divides it later).
            rate *= param._loss_scale
        xp = backend.get_array_module(p)
        if xp is not cuda.cupy:
            g += rate * xp.sign(p)
        else:
            cuda.elementwise('T s, T decay', 'T g', 'g += decay * s',
                             'lasso')(xp.sign(p), rate, g)
