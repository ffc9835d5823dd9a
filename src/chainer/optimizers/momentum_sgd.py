"""Classical momentum SGD."""
from chainer.backends import cuda
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=0.01, momentum=0.9)


class MomentumSGDRule(_util.MomentumRule):
    """Update rule of momentum SGD: ``v = momentum * v - lr * grad; param += v``.

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


class MomentumSGD(_util.MomentumOptimizer):
    """Momentum SGD.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _rule = MomentumSGDRule
