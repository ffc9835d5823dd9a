"""AdaGrad (Duchi et al., 2011)."""
import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=0.001, eps=1e-8)


class AdaGradRule(optimizer.UpdateRule):
    """Update rule: ``h += grad ** 2; param -= lr * grad / (sqrt(h) + eps)``.

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
        self.state['h'] = _util.zeros_like(param)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        h = self.state['h']
        h += grad * grad
        step = numpy.sqrt(h, out=numpy.empty_like(h))
        step += self.hyperparam.eps
        # (lr * grad) / denominator: Chainer 7.8.1's rounding, bit for bit
        numpy.divide(self.hyperparam.lr * grad, step, out=step)
        param.array -= step

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        cuda.elementwise(
            'T grad, T lr, T eps', 'T param, T h',
            'h += grad * grad; param -= lr * grad / (sqrt(h) + eps)',
            'adagrad')(grad, self.hyperparam.lr, self.hyperparam.eps,
                       param.array, self.state['h'])


class AdaGrad(optimizer.GradientMethod):
    """AdaGrad: per-element learning rates shrinking with the summed squared gradients.

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
        return AdaGradRule(self.hyperparam)
