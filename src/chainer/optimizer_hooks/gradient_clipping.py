"""Gradient clipping by the global L2 norm."""
import math


def _sum_sqnorm(arrays):
    total = 0.0
    for x in arrays:
        flat = x.ravel()
        total += float(flat.dot(flat))
    return total


class GradientClipping:
    """Rescales all gradients so that their global L2 norm is at most ``threshold``.

    Args:
        threshold (float): Largest L2 norm of the concatenated gradients.

    Attributes:
        threshold (float): Largest L2 norm of the concatenated gradients.
        timing (str): ``'pre'``: runs before the update.
    """

    name = 'GradientClipping'
    timing = 'pre'

    def __init__(self, threshold):
        self.threshold = threshold

    def __call__(self, opt):
        grads = [p.grad for p in opt.target.params(False) if p.grad is not None]
        norm = math.sqrt(_sum_sqnorm(grads))
        if norm == 0:
            return
        rate = self.threshold / norm
        if rate < 1:
            for g in grads:
                g *= rate
