"""Classical momentum SGD."""
from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=0.01, momentum=0.9)


class MomentumSGDRule(optimizer.UpdateRule):
    """Update rule of momentum SGD: ``v = momentum * v - lr * grad; param += v``.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Hyperparameters
            to fall back to.
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given(self.hyperparam, lr=lr, momentum=momentum)

    def init_state(self, param):
        self.state['v'] = _util.zeros_like(param)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        v = self.state['v']
        v *= self.hyperparam.momentum
        v -= self.hyperparam.lr * grad
        param.array += v

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        cuda.elementwise(
            'T grad, T lr, T momentum', 'T param, T v',
            'v = momentum * v - lr * grad; param += v',
            'momentum_sgd')(grad, self.hyperparam.lr, self.hyperparam.momentum,
                            param.array, self.state['v'])


class MomentumSGD(optimizer.GradientMethod):
    """Momentum SGD.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    def __init__(self, lr=_default_hyperparam.lr, momentum=_default_hyperparam.momentum):
        super().__init__()
        _util.set_given(self.hyperparam, lr=lr, momentum=momentum)

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def create_update_rule(self):
        return MomentumSGDRule(self.hyperparam)
