"""AdaDelta (Zeiler, 2012)."""
import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(rho=0.95, eps=1e-6)


class AdaDeltaRule(optimizer.UpdateRule):
    """Update rule of AdaDelta.

    With running averages ``msg`` of squared gradients and ``msdx`` of squared
    steps: ``msg = rho * msg + (1 - rho) * grad ** 2``,
    ``dx = sqrt((msdx + eps) / (msg + eps)) * grad``,
    ``msdx = rho * msdx + (1 - rho) * dx ** 2``, ``param -= dx``.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Hyperparameters
            to fall back to.
        rho (float): Exponential decay rate of the averages.
        eps (float): Small value for numerical stability.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, rho=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given(self.hyperparam, rho=rho, eps=eps)

    def init_state(self, param):
        self.state['msg'] = _util.zeros_like(param)
        self.state['msdx'] = _util.zeros_like(param)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        rho, eps = self.hyperparam.rho, self.hyperparam.eps
        msg, msdx = self.state['msg'], self.state['msdx']
        msg *= rho
        msg += (1 - rho) * grad * grad
        dx = numpy.add(msdx, eps, out=numpy.empty_like(msdx))
        dx /= msg + eps
        numpy.sqrt(dx, out=dx)
        dx *= grad
        msdx *= rho
        msdx += (1 - rho) * dx * dx
        param.array -= dx

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        cuda.elementwise(
            'T grad, T one_minus_rho, T eps', 'T param, T msg, T msdx',
            '''msg   = msg + one_minus_rho * (grad * grad - msg);
               T dx  = sqrt((msdx + eps) / (msg + eps)) * grad;
               msdx  += one_minus_rho * (dx * dx - msdx);
               param -= dx;''',
            'adadelta')(grad, 1 - self.hyperparam.rho, self.hyperparam.eps,
                        param.array, self.state['msg'], self.state['msdx'])


class AdaDelta(optimizer.GradientMethod):
    """AdaDelta: steps scaled by the ratio of running RMS of steps and gradients.

    Args:
        rho (float): Exponential decay rate of the averages.
        eps (float): Small value for numerical stability.
    """

    def __init__(self, rho=_default_hyperparam.rho, eps=_default_hyperparam.eps):
        super().__init__()
        _util.set_given(self.hyperparam, rho=rho, eps=eps)

    rho = optimizer.HyperparameterProxy('rho')
    eps = optimizer.HyperparameterProxy('eps')

    def create_update_rule(self):
        return AdaDeltaRule(self.hyperparam)
