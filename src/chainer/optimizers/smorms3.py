"""SMORMS3 (Simon Funk, 2015)."""
import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=0.001, eps=1e-16)


class SMORMS3Rule(optimizer.UpdateRule):
    """Update rule of SMORMS3.

    With a memory length ``mem`` and running averages ``g`` and ``g2``:
    ``r = 1 / (mem + 1)``, ``g = (1 - r) * g + r * grad``,
    ``g2 = (1 - r) * g2 + r * grad ** 2``, ``x = g ** 2 / (g2 + eps)``,
    ``param -= grad * min(lr, x) / (sqrt(g2) + eps)``, ``mem = 1 + mem * (1 - x)``.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Hyperparameters
            to fall back to.
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given(self.hyperparam, lr=lr, eps=eps)

    def init_state(self, param):
        self.state['mem'] = _util.zeros_like(param, 1)
        self.state['g'] = _util.zeros_like(param)
        self.state['g2'] = _util.zeros_like(param)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        lr, eps = self.hyperparam.lr, self.hyperparam.eps
        mem, g, g2 = self.state['mem'], self.state['g'], self.state['g2']
        r = 1 / (mem + 1)
        g *= 1 - r
        g += r * grad
        g2 *= 1 - r
        g2 += r * grad * grad
        x = numpy.multiply(g, g, out=numpy.empty_like(g))
        x /= g2 + eps
        step = numpy.minimum(x, lr, out=numpy.empty_like(x))
        step *= grad
        step /= numpy.sqrt(g2) + eps
        param.array -= step
        x -= 1
        mem *= x
        numpy.subtract(1, mem, out=mem)

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        cuda.elementwise(
            'T grad, T lr, T eps', 'T param, T mem, T g, T g2',
            '''T r, x;
               r = 1 / (mem + 1);
               g = (1 - r) * g + r * grad;
               g2 = (1 - r) * g2 + r * grad * grad;
               x = g * g / (g2 + eps);
               param -= grad * min(lr, x) / (sqrt(g2) + eps);
               mem = 1 + mem * (1 - x);''',
            'smorms3')(grad, self.hyperparam.lr, self.hyperparam.eps, param.array,
                       self.state['mem'], self.state['g'], self.state['g2'])


class SMORMS3(optimizer.GradientMethod):
    """SMORMS3: RMSprop with an adaptive averaging length per element.

    Args:
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    def __init__(self, lr=_default_hyperparam.lr, eps=_default_hyperparam.eps):
        super().__init__()
        _util.set_given(self.hyperparam, lr=lr, eps=eps)

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')

    def create_update_rule(self):
        return SMORMS3Rule(self.hyperparam)
