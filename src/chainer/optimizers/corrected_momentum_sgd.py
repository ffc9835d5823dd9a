"""Momentum SGD with the learning rate applied after the momentum (Goyal et al., 2017)."""
from chainer.backends import cuda
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=0.01, momentum=0.9)


class CorrectedMomentumSGDRule(_util.MomentumRule):
    """Update rule: ``v = momentum * v - grad; param += lr * v``.

    Changing ``lr`` during training then does not rescale the accumulated
    velocity, which suits learning-rate schedules with large batches.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Hyperparameters
            to fall back to.
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _defaults = _default_hyperparam

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


class CorrectedMomentumSGD(_util.MomentumOptimizer):
    """Momentum SGD whose learning rate multiplies the velocity, not the gradient.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _rule = CorrectedMomentumSGDRule
