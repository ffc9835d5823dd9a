"""Layer-wise adaptive rate scaling (You et al., 2017)."""
from chainer import backend


class GradientLARS:
    """Scales each parameter's gradient by its layer-wise trust ratio (LARS).

    The gradient (with weight decay added) is multiplied by
    ``||param|| / (eps + ||grad|| + weight_decay * ||param||)`` when the norm of the
    parameter exceeds ``threshold``, and left at scale 1 otherwise.

    Args:
        threshold (float): Parameter norm below which the gradient is not rescaled.
        weight_decay (float): Coefficient of the weight decay.
        eps (float): Small value for numerical stability.

    Attributes:
        timing (str): ``'pre'``: runs before the update.
    """

    name = 'GradientLARS'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, threshold=1e-2, weight_decay=0.0, eps=1e-9):
        self.threshold = threshold
        self.weight_decay = weight_decay
        self.eps = eps

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        xp = backend.get_array_module(p)
        p_norm = xp.linalg.norm(p)
        g_norm = xp.linalg.norm(g)
        local_rate = p_norm / (self.eps + g_norm + self.weight_decay * p_norm)
        # Chainer 7.8.1 rescales only parameters whose norm exceeds the threshold.
        rate = xp.where(p_norm > self.threshold, local_rate, p.dtype.type(1))
        g += self.weight_decay * p
        g *= rate
