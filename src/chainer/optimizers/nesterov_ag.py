"""Nesterov's accelerated gradient, in the form of Sutskever et al. (2013)."""
from chainer.backends import cuda
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=0.01, momentum=0.9)


class NesterovAGRule(_util.MomentumRule):
    """Update rule: ``v = mu * v - lr * grad; param += mu * mu * v - (1 + mu) * lr * grad``.

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
        lr, mu = self.hyperparam.lr, self.hyperparam.momentum
        v *= mu
        v -= lr * grad
        data = param.array
        data += mu * mu * v
        data -= (1 + mu) * lr * grad

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        cuda.elementwise(
            'T grad, T lr, T momentum', 'T param, T v',
            '''v = v * momentum - lr * grad;
               param += momentum * momentum * v - (1 + momentum) * lr * grad;''',
            'nesterov_ag')(grad, self.hyperparam.lr, self.hyperparam.momentum,
                           param.array, self.state['v'])


class NesterovAG(_util.MomentumOptimizer):
    """Momentum SGD with Nesterov's look-ahead.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the velocity.
    """

    _rule = NesterovAGRule
