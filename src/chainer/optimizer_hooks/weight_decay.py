"""L2 regularization as an optimizer hook."""
from chainer import backend
from chainer.backends import cuda


class WeightDecay:
    """Adds ``rate * param`` to each gradient (L2 regularization).

    Args:
        rate (float): Coefficient of the decay.

    Attributes:
        rate (float): Coefficient of the decay.
        timing (str): ``'pre'``: runs before the update.
    """

    name = 'WeightDecay'
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
        if backend.get_array_module(p) is not cuda.cupy:
            g += rate * p
        else:
            cuda.elementwise('T p, T decay', 'T g', 'g += decay * p',
                             'weight_decay')(p, rate, g)
