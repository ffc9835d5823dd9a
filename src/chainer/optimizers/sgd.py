"""Stochastic gradient descent."""
from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=0.01)


class SGDRule(optimizer.UpdateRule):
    """Update rule of plain SGD: ``param -= lr * grad``.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Hyperparameters
            to fall back to.
        lr (float): Learning rate.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given(self.hyperparam, lr=lr)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        param.array -= self.hyperparam.lr * grad

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        cuda.elementwise('T grad, T lr', 'T param', 'param -= lr * grad',
                         'sgd')(grad, self.hyperparam.lr, param.array)


class SGD(optimizer.GradientMethod):
    """Vanilla stochastic gradient descent.

    Args:
        lr (float): Learning rate.
    """

    def __init__(self, lr=_default_hyperparam.lr):
        super().__init__()
        self.hyperparam.lr = lr

    lr = optimizer.HyperparameterProxy('lr')

    def create_update_rule(self):
        return SGDRule(self.hyperparam)
