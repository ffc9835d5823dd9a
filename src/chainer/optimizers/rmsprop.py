"""RMSprop (Tieleman and Hinton, 2012)."""
import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=0.01, alpha=0.99, eps=1e-8, eps_inside_sqrt=False)


class RMSpropRule(optimizer.UpdateRule):
    """Update rule: ``ms = alpha * ms + (1 - alpha) * grad ** 2; param -= lr * grad / (sqrt(ms) + eps)``.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Hyperparameters
            to fall back to.
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the squared-gradient average.
        eps (float): Small value for numerical stability.
        eps_inside_sqrt (bool): Use ``sqrt(ms + eps)`` as the denominator
            (as TensorFlow does) instead of ``sqrt(ms) + eps``.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None, eps=None,
                 eps_inside_sqrt=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given(self.hyperparam, lr=lr, alpha=alpha, eps=eps,
                        eps_inside_sqrt=eps_inside_sqrt)

    def init_state(self, param):
        self.state['ms'] = _util.zeros_like(param)

    def _check_eps(self, param):
        # an eps that rounds to zero in float16 leaves the step dividing by sqrt(ms) alone
        if param.dtype == numpy.float16 and numpy.float16(self.hyperparam.eps) == 0:
            raise ValueError(f'RMSprop: eps={self.hyperparam.eps} is too small for float16 '
                             f'parameters (it rounds to zero); use eps >= 6e-8')

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        self._check_eps(param)
        hp = self.hyperparam
        ms = self.state['ms']
        ms *= hp.alpha
        ms += (1 - hp.alpha) * grad * grad
        if hp.eps_inside_sqrt:
            denom = numpy.add(ms, hp.eps, out=numpy.empty_like(ms))
            numpy.sqrt(denom, out=denom)
        else:
            denom = numpy.sqrt(ms, out=numpy.empty_like(ms))
            denom += hp.eps
        # (lr * grad) / denominator: Chainer 7.8.1's rounding, bit for bit
        numpy.divide(hp.lr * grad, denom, out=denom)
        param.array -= denom

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        self._check_eps(param)
        denom = 'sqrt(ms + eps)' if hp.eps_inside_sqrt else 'sqrt(ms) + eps'
        cuda.elementwise(
            'T grad, T lr, T alpha, T eps', 'T param, T ms',
            f'ms = alpha * ms + (1 - alpha) * grad * grad; param -= lr * grad / ({denom})',
            'rmsprop_inside' if hp.eps_inside_sqrt else 'rmsprop')(
                grad, hp.lr, hp.alpha, hp.eps, param.array, self.state['ms'])


class RMSprop(optimizer.GradientMethod):
    """RMSprop: gradients divided by a running RMS of their recent values.

    Args:
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the squared-gradient average.
        eps (float): Small value for numerical stability.
        eps_inside_sqrt (bool): Put ``eps`` inside the square root.
    """

    def __init__(self, lr=_default_hyperparam.lr, alpha=_default_hyperparam.alpha,
                 eps=_default_hyperparam.eps, eps_inside_sqrt=False):
        super().__init__()
        _util.set_given(self.hyperparam, lr=lr, alpha=alpha, eps=eps,
                        eps_inside_sqrt=eps_inside_sqrt)

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    eps = optimizer.HyperparameterProxy('eps')
    eps_inside_sqrt = optimizer.HyperparameterProxy('eps_inside_sqrt')

    def create_update_rule(self):
        return RMSpropRule(self.hyperparam)
