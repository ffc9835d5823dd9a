"""Gradient noise (Neelakantan et al., 2015)."""
import numpy

from chainer import backend


def exponential_decay_noise(xp, shape, dtype, hook, opt):
    """Gaussian noise whose variance decays as ``eta / (1 + t) ** 0.55``.

    Args:
        xp: Array module of the parameter.
        shape (tuple of int): Shape of the noise.
        dtype: dtype of the noise.
        hook (GradientNoise): The hook (its ``eta`` scales the variance).
        opt: The update rule (its ``t`` is the step).

    Returns:
        The noise array.
    """
    std = numpy.sqrt(hook.eta / numpy.power(1 + opt.t, 0.55))
    return xp.random.normal(0, std, shape).astype(dtype)


class GradientNoise:
    """Adds noise from ``noise_func`` to every gradient.

    Args:
        eta (float): Scale of the noise (passed to ``noise_func`` through the hook).
        noise_func (callable): ``noise_func(xp, shape, dtype, hook, rule)``
            returning the noise; by default Gaussian noise with a variance
            decaying over the steps.

    Attributes:
        timing (str): ``'pre'``: runs before the update.
    """

    name = 'GradientNoise'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, eta, noise_func=exponential_decay_noise):
        self.eta = eta
        self.noise_func = noise_func

    def __call__(self, rule, param):
        g = param.grad
        if g is None:
            return
        xp = backend.get_array_module(g)
        g += self.noise_func(xp, g.shape, g.dtype, self, rule)
