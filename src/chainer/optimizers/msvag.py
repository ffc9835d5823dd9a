"""M-SVAG: momentum with stochastic variance-adapted step sizes (Balles and Hennig, 2018)."""
import numpy

from chainer import backend
from chainer import optimizer
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(lr=0.1, beta=0.9, eta=1.0, weight_decay_rate=0)


class MSVAGRule(optimizer.UpdateRule):
    """Update rule of M-SVAG.

    With bias-corrected running averages ``m_t`` of the gradient and ``v_t`` of
    its square, ``rho`` the variance-reduction factor of the average at step
    ``t`` and ``s = (v_t - m_t ** 2) / (1 - rho)`` the gradient variance
    estimate, each element moves by
    ``lr * m_t * clip(m_t ** 2 / (m_t ** 2 + rho * s), 0, 1)`` (the factor is
    0 where it is undefined), plus decoupled weight decay, times ``eta``.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Hyperparameters
            to fall back to.
        lr (float): Learning rate.
        beta (float): Decay rate of the averages.
        eta (float): Schedule multiplier.
        weight_decay_rate (float): Decoupled weight decay rate.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, beta=None, eta=None,
                 weight_decay_rate=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given(self.hyperparam, lr=lr, beta=beta, eta=eta,
                        weight_decay_rate=weight_decay_rate)

    def init_state(self, param):
        self.state['m'] = _util.zeros_like(param)
        self.state['v'] = _util.zeros_like(param)

    def _rho(self):
        beta, t = self.hyperparam.beta, self.t
        rho = ((1 - beta) * (1 + beta ** t)) / ((1 + beta) * (1 - beta ** t))
        # At t == 1, rho is 1 and the variance estimate undefined; keep it finite.
        return min(rho, 1 - 1e-4)

    def update_core(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        xp = backend.get_array_module(grad)
        m, v = self.state['m'], self.state['v']
        m += (1 - hp.beta) * (grad - m)
        v += (1 - hp.beta) * (grad * grad - v)
        correction = 1 - hp.beta ** self.t
        mt = m / correction
        mt2 = mt * mt
        rho = self._rho()
        s = (v / correction - mt2) / (1 - rho)
        with numpy.errstate(divide='ignore', invalid='ignore'):
            factor = mt2 / (mt2 + rho * s)
        factor = xp.nan_to_num(xp.clip(factor, 0, 1), nan=0.0)
        step = hp.lr * mt * factor
        data = param.array
        if hp.weight_decay_rate != 0:
            step += hp.weight_decay_rate * data
        step *= hp.eta
        data -= step

    def update_core_cpu(self, param):
        self.update_core(param)

    def update_core_gpu(self, param):
        self.update_core(param)


class MSVAG(optimizer.GradientMethod):
    """M-SVAG optimizer.

    Args:
        lr (float): Learning rate.
        beta (float): Decay rate of the averages.
        eta (float): Schedule multiplier.
        weight_decay_rate (float): Decoupled weight decay rate.
    """

    def __init__(self, lr=_default_hyperparam.lr, beta=_default_hyperparam.beta,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__()
        _util.set_given(self.hyperparam, lr=lr, beta=beta, eta=eta,
                        weight_decay_rate=weight_decay_rate)

    lr = optimizer.HyperparameterProxy('lr')
    beta = optimizer.HyperparameterProxy('beta')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')

    def create_update_rule(self):
        return MSVAGRule(self.hyperparam)
