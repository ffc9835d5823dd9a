"""Element-wise gradient clipping."""
from chainer import backend


class GradientHardClipping:
    """Clips every gradient element into ``[lower_bound, upper_bound]``.

    Args:
        lower_bound (float): Smallest value a gradient element keeps.
        upper_bound (float): Largest value a gradient element keeps.

    Attributes:
        timing (str): ``'pre'``: runs before the update.
    """

    name = 'GradientHardClipping'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, lower_bound, upper_bound):
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, rule, param):
        grad = param.grad
        if grad is None:
            return
        xp = backend.get_array_module(grad)
        xp.clip(grad, self.lower_bound, self.upper_bound, out=grad)
