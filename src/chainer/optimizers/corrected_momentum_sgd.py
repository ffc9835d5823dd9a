"""Momentum SGD with the learning rate applied after the momentum (Goyal et al., 2017)."""
from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=0.01, momentum=0.9)


class CorrectedMomentumSGDRule(optimizer.UpdateRule):
    """Update rule: ``v = momentum * v - grad; param += lr * v``.

    Changing ``lr`` during training then does not rescale the accumulated
    velocity, which suits learning-rate schedules with large batches.

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
        v -= grad
        param.array += self.hyperparam.lr * v

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        cuda.elementwise(
            'T grad, T lr, T momentum', 'T param, T v',
            'v = momentum * v - grad; param += lr * v',
            'corrected_momentum_sgd')(grad, self.hyperparam.lr, self.hyperparam.momentum,
                                      param.array, self.state['v'])


class CorrectedMomentumSGD(optimizer.GradientMethod):
    """Momentum SGD whose learning rate multiplies the velocity, not the gradient.

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
        return CorrectedMomentumSGDRule(self.hyperparam)
