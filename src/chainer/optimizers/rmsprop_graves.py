"""Alex Graves's RMSprop with momentum (Graves, 2013)."""
import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=1e-4, alpha=0.95, momentum=0.9, eps=1e-4)


class RMSpropGravesRule(optimizer.UpdateRule):
    """Update rule of Graves's RMSprop.

    With running averages ``n`` of squared gradients and ``g`` of gradients:
    ``delta = momentum * delta - lr * grad / sqrt(n - g ** 2 + eps)``,
    ``param += delta``.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Hyperparameters
            to fall back to.
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the averages.
        momentum (float): Exponential decay rate of the step.
        eps (float): Small value for numerical stability.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None, momentum=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given(self.hyperparam, lr=lr, alpha=alpha, momentum=momentum, eps=eps)

    def init_state(self, param):
        self.state['n'] = _util.zeros_like(param)
        self.state['g'] = _util.zeros_like(param)
        self.state['delta'] = _util.zeros_like(param)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        n, g, delta = self.state['n'], self.state['g'], self.state['delta']
        n *= hp.alpha
        n += (1 - hp.alpha) * grad * grad
        g *= hp.alpha
        g += (1 - hp.alpha) * grad
        denom = numpy.subtract(n, g * g, out=numpy.empty_like(n))
        denom += hp.eps
        numpy.sqrt(denom, out=denom)
        # (lr * grad) / denominator: Chainer 7.8.1's rounding, bit for bit
        numpy.divide(hp.lr * grad, denom, out=denom)
        delta *= hp.momentum
        delta -= denom
        param.array += delta

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        cuda.elementwise(
            'T grad, T lr, T alpha, T momentum, T eps', 'T param, T avg_n, T avg_g, T delta',
            '''avg_n = alpha * avg_n + (1 - alpha) * grad * grad;
               avg_g = alpha * avg_g + (1 - alpha) * grad;
               delta = momentum * delta - lr * grad * rsqrt(avg_n - avg_g * avg_g + eps);
               param += delta;''',
            'rmsprop_graves')(grad, hp.lr, hp.alpha, hp.momentum, hp.eps, param.array,
                              self.state['n'], self.state['g'], self.state['delta'])


class RMSpropGraves(optimizer.GradientMethod):
    """RMSprop with momentum and a centred second moment, as used by Graves.

    Args:
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the averages.
        momentum (float): Exponential decay rate of the step.
        eps (float): Small value for numerical stability.
    """

    def __init__(self, lr=_default_hyperparam.lr, alpha=_default_hyperparam.alpha,
                 momentum=_default_hyperparam.momentum, eps=_default_hyperparam.eps):
        super().__init__()
        _util.set_given(self.hyperparam, lr=lr, alpha=alpha, momentum=momentum, eps=eps)

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    momentum = optimizer.HyperparameterProxy('momentum')
    eps = optimizer.HyperparameterProxy('eps')

    def create_update_rule(self):
        return RMSpropGravesRule(self.hyperparam)
