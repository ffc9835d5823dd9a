"""What the regularization hooks share: skipping empty parameters and the loss scale."""
from chainer import backend


class Regularizer:
    """Adds ``rate`` times a penalty gradient to each parameter's gradient.

    Subclasses implement ``_add(xp, param_array, grad, rate)``.
    """

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
        self._add(backend.get_array_module(p), p, g, rate)
