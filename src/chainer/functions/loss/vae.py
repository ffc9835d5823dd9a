"""Losses of variational auto-encoders: Gaussian KL divergence and negative log-likelihoods."""
import math

import chainer
from chainer.functions.loss import _common

_REDUCE = ('sum', 'mean', 'no')


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
    F = chainer.functions
    loss = (mean * mean + F.exp(ln_var) - ln_var - 1) * 0.5
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
    loss = chainer.functions.softplus(y) - x * y
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
    F = chainer.functions
    diff = x - mean
    loss = (ln_var + diff * diff * F.exp(-ln_var) + math.log(2 * math.pi)) * 0.5
    return _reduce(loss, reduce)
