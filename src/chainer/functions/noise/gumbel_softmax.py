"""Gumbel-softmax: a differentiable relaxation of sampling from a categorical."""
from chainer import backend
from chainer import variable
from chainer.functions import _checks
from chainer.functions.activation import softmax


def gumbel_softmax(log_pi, tau=0.1, axis=1):
    """Gumbel-softmax sampling (Jang et al., 2017).

    .. math:: y = \\mathrm{softmax}\\left(\\frac{\\log \\pi + g}{\\tau}\\right)

    with Gumbel noise :math:`g` drawn for each element; as ``tau`` goes to 0
    the result approaches a one-hot sample from the categorical with
    probabilities :math:`\\pi` along ``axis``.

    Args:
        log_pi (~chainer.Variable or N-dimensional array): Unnormalized log
            probabilities (float).
        tau (float): Temperature, positive.
        axis (int): Axis of the categories.

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``log_pi``, summing
        to 1 along ``axis``.

    .. admonition:: Example

        >>> y = F.gumbel_softmax(np.log(np.array([[.2, .8]], np.float32)))
        >>> y.shape, float(y.array.sum())
        ((1, 2), 1.0)
    """
    if log_pi is None:
        raise _checks.not_an_array('gumbel_softmax', 'log_pi', None)
    log_pi = variable.as_variable(log_pi)
    xp = backend.get_array_module(log_pi)
    if log_pi.ndim == 0:
        # A single category: the softmax over it is 1.
        return variable.Variable(xp.ones((), log_pi.dtype))
    g = xp.random.gumbel(size=log_pi.shape).astype(log_pi.dtype, copy=False)
    return softmax.softmax((log_pi + g) / tau, axis=axis)
