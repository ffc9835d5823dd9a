"""Adam (Kingma and Ba, 2015) and its variants AdamW, AMSGrad, AdaBound and AMSBound."""
import math
import warnings

import numpy

from chainer.backends import cuda
from chainer import optimizer
from chainer.optimizers import _util

_default_hyperparam = _util.defaults(
    alpha=0.001, beta1=0.9, beta2=0.999, eps=1e-8, eta=1.0, weight_decay_rate=0,
    amsgrad=False, adabound=False, final_lr=0.1, gamma=1e-3)


_CPU_HYPERPARAMS = ('alpha', 'beta1', 'beta2', 'eps', 'eta', 'weight_decay_rate', 'amsgrad',
                    'adabound')


def _bias_corrected(alpha, beta1, beta2, t):
    if t == 0:
        raise RuntimeError("Can't determine the learning rate of Adam optimizer because "
                           "the update steps have not been started.")
    return alpha * math.sqrt(1. - beta2 ** t) / (1. - beta1 ** t)


def _learning_rate(hp, t):
    return _bias_corrected(hp.alpha, hp.beta1, hp.beta2, t)


def _moments_and_step(grad, m, v, step, alpha_t, beta1, beta2, eps, vhat=None, bounds=None):
    """Updates the moments in place and writes into ``step`` what the parameter loses.

    The whole step runs in the one scratch array ``step``: the operations of the formula
    in its order, with no temporary per term.
    """
    numpy.subtract(grad, m, out=step)
    step *= 1 - beta1
    m += step
    numpy.multiply(grad, grad, out=step)
    step -= v
    step *= 1 - beta2
    v += step
    if vhat is not None:
        numpy.maximum(vhat, v, out=vhat)
    else:
        vhat = v
    numpy.sqrt(vhat, out=step)
    step += eps
    # alpha_t / (sqrt(v) + eps), then times m: Chainer 7.8.1's rounding, bit for bit
    numpy.divide(alpha_t, step, out=step)
    if bounds is not None:
        numpy.clip(step, bounds[0], bounds[1], out=step)
    step *= m
    return step


def _take_step(data, step, eta, weight_decay_rate):
    if eta != 1:
        step *= eta
    # The decoupled weight decay scales the parameter by 1 - eta * rate before the step is
    # taken off, which rounds as Chainer 7.8.1 does (adding rate * param to the step does not).
    if weight_decay_rate != 0:
        data *= 1 - eta * weight_decay_rate
    data -= step


class AdamRule(optimizer.UpdateRule):
    """Update rule of Adam and its variants.

    ``m`` and ``v`` are running averages of the gradient and its square;
    ``alpha_t = alpha * sqrt(1 - beta2 ** t) / (1 - beta1 ** t)`` corrects
    their bias, and
    ``param -= eta * (alpha_t * m / (sqrt(v) + eps) + weight_decay_rate * param)``.
    With ``amsgrad``, ``v`` is replaced by its running maximum ``vhat``; with
    ``adabound``, the per-element step ``alpha_t / (sqrt(v) + eps)`` is
    clipped to bounds that converge to ``final_lr`` at a speed set by
    ``gamma``, turning Adam into SGD over time.

    Args:
        parent_hyperparam (~chainer.optimizer.Hyperparameter): Hyperparameters
            to fall back to.
        alpha (float): Step size.
        beta1 (float): Decay rate of the first moment.
        beta2 (float): Decay rate of the second moment.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier (for learning-rate schedules).
        weight_decay_rate (float): Decoupled weight decay (AdamW).
        amsgrad (bool): Use AMSGrad's maximum of the second moment.
        adabound (bool): Use AdaBound's step bounds.
        final_lr (float): Learning rate the bounds converge to.
        gamma (float): Convergence speed of the bounds.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, alpha=None, beta1=None, beta2=None, eps=None,
                 eta=None, weight_decay_rate=None, amsgrad=None, adabound=None,
                 final_lr=None, gamma=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given(self.hyperparam, alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                        eta=eta, weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
                        adabound=adabound, final_lr=final_lr, gamma=gamma)
        self.initial_alpha = None

    def init_state(self, param):
        self.state['m'] = _util.zeros_like(param)
        self.state['v'] = _util.zeros_like(param)
        if self.hyperparam.amsgrad:
            self.state['vhat'] = _util.zeros_like(param)

    def _final_lr(self):
        hp = self.hyperparam
        if self.initial_alpha is None:
            self.initial_alpha = hp.alpha
        return hp.final_lr * hp.alpha / self.initial_alpha

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        # Each hyperparameter is read once (in one walk of the fallback chain), and the
        # whole step runs in one scratch array: the same operations in the same order as
        # the formula, with no temporary per term.
        alpha, beta1, beta2, eps, eta, weight_decay_rate, amsgrad, adabound = (
            optimizer._read_hyperparameters(self.hyperparam, _CPU_HYPERPARAMS))
        if type(self).alpha_t is AdamRule.alpha_t:
            alpha_t = _bias_corrected(alpha, beta1, beta2, self.t)
        else:   # a subclass's own step size
            alpha_t = self.alpha_t
        m, v = self.state['m'], self.state['v']
        step = _moments_and_step(
            grad, m, v, numpy.empty_like(m), alpha_t, beta1, beta2, eps,   # (0-d: an array)
            self.state['vhat'] if amsgrad else None, self.bounds if adabound else None)
        _take_step(param.array, step, eta, weight_decay_rate)

    def update_core_gpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        args = [grad, self.alpha_t, 1 - hp.beta1, 1 - hp.beta2, hp.eps, hp.eta,
                hp.weight_decay_rate]
        moments = 'm += one_minus_beta1 * (grad - m); v += one_minus_beta2 * (grad * grad - v);'
        params = 'T grad, T alpha_t, T one_minus_beta1, T one_minus_beta2, T eps, T eta, T wd'
        outputs = 'T param, T m, T v'
        if hp.amsgrad:
            outputs += ', T vhat'
            moments += 'vhat = max(vhat, v);'
            second = 'vhat'
        else:
            second = 'v'
        if hp.adabound:
            params += ', T lower, T upper'
            args += list(self.bounds)
            step = f'min(upper, max(lower, alpha_t / (sqrt({second}) + eps))) * m'
        else:
            step = f'alpha_t * m / (sqrt({second}) + eps)'
        arrays = [param.array, self.state['m'], self.state['v']]
        if hp.amsgrad:
            arrays.append(self.state['vhat'])
        name = 'adam' + ('_ams' if hp.amsgrad else '') + ('_bound' if hp.adabound else '')
        cuda.elementwise(params, outputs,
                         f'{moments} param -= eta * ({step} + wd * param);', name)(
                             *args, *arrays)

    @property
    def alpha_t(self):
        """Bias-corrected step size at the current step ``t``."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self):
        """Deprecated name of :attr:`alpha_t`."""
        warnings.warn('AdamRule.lr has been renamed to AdamRule.alpha_t. '
                      'Use of AdamRule.lr is deprecated in Chainer v6.', DeprecationWarning)
        return self.alpha_t

    @property
    def bounds(self):
        """``(lower, upper)`` bounds of AdaBound's step at the current step ``t``."""
        hp = self.hyperparam
        final_lr = self._final_lr()
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
        return lower, upper


class Adam(optimizer.GradientMethod):
    """Adam, with the options of its variants (decoupled weight decay, AMSGrad, AdaBound).

    Args:
        alpha (float): Step size.
        beta1 (float): Decay rate of the first moment.
        beta2 (float): Decay rate of the second moment.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier (for learning-rate schedules).
        weight_decay_rate (float): Decoupled weight decay rate.
        amsgrad (bool): Use AMSGrad.
        adabound (bool): Use AdaBound.
        final_lr (float): Final learning rate of AdaBound.
        gamma (float): Convergence speed of AdaBound's bounds.
    """

    def __init__(self, alpha=_default_hyperparam.alpha, beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2, eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate,
                 amsgrad=_default_hyperparam.amsgrad, adabound=_default_hyperparam.adabound,
                 final_lr=_default_hyperparam.final_lr, gamma=_default_hyperparam.gamma):
        super().__init__()
        _util.set_given(self.hyperparam, alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
                        eta=eta, weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
                        adabound=adabound, final_lr=final_lr, gamma=gamma)

    alpha = optimizer.HyperparameterProxy('alpha')
    beta1 = optimizer.HyperparameterProxy('beta1')
    beta2 = optimizer.HyperparameterProxy('beta2')
    eps = optimizer.HyperparameterProxy('eps')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')
    amsgrad = optimizer.HyperparameterProxy('amsgrad')
    adabound = optimizer.HyperparameterProxy('adabound')
    final_lr = optimizer.HyperparameterProxy('final_lr')
    gamma = optimizer.HyperparameterProxy('gamma')

    _flat_states = None     # the states of the parameters updated together

    def create_update_rule(self):
        return AdamRule(self.hyperparam)

    def _update_together(self, params):
        # The small parameters whose rules would update alike are updated at once, on flat
        # views of their gradients and states: one NumPy call per operation instead of one
        # per operation and parameter. Each element sees the same operations as in
        # AdamRule.update_core_cpu, so the results are the same, bit for bit.
        alpha, beta1, beta2, eps, eta, weight_decay_rate, amsgrad, adabound = (
            optimizer._read_hyperparameters(self.hyperparam, _CPU_HYPERPARAMS))
        if amsgrad or adabound:
            return params
        layout, group, rest = _util.group_small(self, params, AdamRule, ('m', 'v'))
        if layout is None:
            return params
        for param in group:
            param.update_rule.t += 1
        alpha_t = _bias_corrected(alpha, beta1, beta2, group[0].update_rule.t)
        m, v = layout.flats
        step = _moments_and_step(layout.gather_grads(group), m, v, layout.step, alpha_t,
                                 beta1, beta2, eps)
        if eta != 1:
            step *= eta
        for param, part in zip(group, layout.steps):
            # (eta is in the step already; the decay factor is still 1 - eta * rate)
            _take_step(param._array, part, 1, eta * weight_decay_rate)
        return rest

    @property
    def alpha_t(self):
        """Bias-corrected step size at the optimizer's step ``t``."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self):
        """Deprecated name of :attr:`alpha_t`."""
        warnings.warn('Adam.lr has been renamed to AdamRule.alpha_t. '
                      'Use of Adam.lr is deprecated in Chainer v6.', DeprecationWarning)
        return self.alpha_t


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov and Hutter, 2019).

    Args:
        alpha, beta1, beta2, eps, eta: As :class:`Adam`.
        weight_decay_rate (float): Decoupled weight decay rate.
    """

    def __init__(self, alpha=_default_hyperparam.alpha, beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2, eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate)


class AMSGrad(Adam):
    """Adam with AMSGrad's running maximum of the second moment (Reddi et al., 2018).

    Args:
        alpha, beta1, beta2, eps, eta: As :class:`Adam`.
    """

    def __init__(self, alpha=_default_hyperparam.alpha, beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2, eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         amsgrad=True)


class AdaBound(Adam):
    """Adam whose steps are bounded and converge to SGD's (Luo et al., 2019).

    Args:
        alpha, beta1, beta2, eps, eta: As :class:`Adam`.
        final_lr (float): Learning rate the bounds converge to.
        gamma (float): Convergence speed of the bounds.
    """

    def __init__(self, alpha=_default_hyperparam.alpha, beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2, final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma, eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         adabound=True, final_lr=final_lr, gamma=gamma)


class AMSBound(Adam):
    """AdaBound with AMSGrad's maximum of the second moment.

    Args:
        alpha, beta1, beta2, eps, eta: As :class:`Adam`.
        final_lr (float): Learning rate the bounds converge to.
        gamma (float): Convergence speed of the bounds.
    """

    def __init__(self, alpha=_default_hyperparam.alpha, beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2, final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma, eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         amsgrad=True, adabound=True, final_lr=final_lr, gamma=gamma)
