"""Losses of variational auto-encoders: Gaussian KL divergence and negative log-likelihoods."""
import math

import chainer
from chainer import _errors
from chainer.functions import _checks
from chainer.functions.loss import _common
from chainer.utils import type_check

_REDUCE = ('sum', 'mean', 'no')


def _check_operands(func, **operands):
    """TypeError naming ``func`` and the operand that is None. (Lists are taken, as in
    Chainer, which mixes them in with NumPy's operators.)"""
    for name, v in operands.items():
        if v is None:
            raise _checks.not_an_array(func, name, v)


def _explain(error, func, **operands):
    # An operator failed (shapes that do not broadcast, a list where NumPy cannot take one):
    # the error keeps its type (Chainer's: NumPy's, or InvalidType between Variables) and
    # says which function and operands.
    if f'{func}:' not in str(error):
        _errors.add_to_message(error, f'{func}: ' + ', '.join(
            f'{n}: {_errors.describe(v)}' for n, v in operands.items()))


def _reduce(loss, reduce):
    if reduce == 'sum':
        return chainer.functions.sum(loss)
    if reduce == 'mean':
        return chainer.functions.mean(loss)
    return loss


def gaussian_kl_divergence(mean, ln_var, reduce='sum'):
    """KL divergence of a diagonal Gaussian from the standard normal.

    .. math::
        D_{KL}(N(\\mu, \\sigma^2) \\| N(0, 1)) =
        \\frac{1}{2} \\sum_i (\\mu_i^2 + \\sigma_i^2 - \\log \\sigma_i^2 - 1)

    Args:
        mean (~chainer.Variable or N-dimensional array): Means :math:`\\mu`.
        ln_var (~chainer.Variable or N-dimensional array): Log variances
            :math:`\\log \\sigma^2`, of the same shape.
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (elementwise).

    Returns:
        ~chainer.Variable: The divergence.

    .. admonition:: Example

        >>> F.gaussian_kl_divergence(np.zeros(3, 'f'), np.zeros(3, 'f')).array
        array(0., dtype=float32)
    """
    _common.check_reduce('gaussian_kl_divergence', reduce, _REDUCE)
    _check_operands('gaussian_kl_divergence', mean=mean, ln_var=ln_var)
    F = chainer.functions
    try:
        loss = (mean * mean + F.exp(ln_var) - ln_var - 1) * 0.5
    except (TypeError, ValueError, type_check.InvalidType) as e:
        _explain(e, 'gaussian_kl_divergence', mean=mean, ln_var=ln_var)
        raise
    return _reduce(loss, reduce)


def bernoulli_nll(x, y, reduce='sum'):
    """Negative log-likelihood of ``x`` under Bernoulli distributions of logits ``y``.

    .. math:: -\\sum_i \\{x_i \\log p_i + (1 - x_i) \\log(1 - p_i)\\},
        \\quad p = \\mathrm{sigmoid}(y)

    computed as ``softplus(y) - x * y``, which is finite for any logit.

    Args:
        x (~chainer.Variable or N-dimensional array): Observations (in [0, 1]).
        y (~chainer.Variable or N-dimensional array): Logits, of the same shape.
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (elementwise).

    Returns:
        ~chainer.Variable: The negative log-likelihood.

    .. admonition:: Example

        >>> F.bernoulli_nll(np.ones(2, 'f'), np.zeros(2, 'f')).array
        array(1.3862944, dtype=float32)
    """
    _common.check_reduce('bernoulli_nll', reduce, _REDUCE)
    _check_operands('bernoulli_nll', x=x, y=y)
    try:
        loss = chainer.functions.softplus(y) - x * y
    except (TypeError, ValueError, type_check.InvalidType) as e:
        _explain(e, 'bernoulli_nll', x=x, y=y)
        raise
    return _reduce(loss, reduce)


def gaussian_nll(x, mean, ln_var, reduce='sum'):
    """Negative log-likelihood of ``x`` under diagonal Gaussians.

    .. math::
        \\frac{1}{2} \\sum_i \\{\\log(2\\pi) + \\log \\sigma_i^2 +
        (x_i - \\mu_i)^2 / \\sigma_i^2\\}

    Args:
        x (~chainer.Variable or N-dimensional array): Observations.
        mean (~chainer.Variable or N-dimensional array): Means, of the same shape.
        ln_var (~chainer.Variable or N-dimensional array): Log variances,
            of the same shape.
        reduce (str): ``'sum'``, ``'mean'`` or ``'no'`` (elementwise).

    Returns:
        ~chainer.Variable: The negative log-likelihood.

    .. admonition:: Example

        >>> z = np.zeros(2, 'f')
        >>> F.gaussian_nll(z, z, z).array
        array(1.837877, dtype=float32)
    """
    _common.check_reduce('gaussian_nll', reduce, _REDUCE)
    _check_operands('gaussian_nll', x=x, mean=mean, ln_var=ln_var)
    F = chainer.functions
    try:
        diff = x - mean
        loss = (ln_var + diff * diff * F.exp(-ln_var) + math.log(2 * math.pi)) * 0.5
    except (TypeError, ValueError, type_check.InvalidType) as e:
        _explain(e, 'gaussian_nll', x=x, mean=mean, ln_var=ln_var)
        raise
    return _reduce(loss, reduce)
