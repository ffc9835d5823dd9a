"""BlackOut loss (Ji et al., 2016): a sampled approximation of softmax cross entropy."""
import numpy

import chainer
from chainer.functions.loss import _common
from chainer.utils import type_check


def black_out(x, t, W, samples, reduce='mean'):
    """BlackOut loss.

    With :math:`p_i = w_{t_i}^\\top x_i`, :math:`q_{ik} = w_{s_{ik}}^\\top x_i`
    and :math:`Z_i = e^{p_i} + \\sum_k e^{q_{ik}}`,

    .. math::
        l_i = -\\log \\frac{e^{p_i}}{Z_i} - \\sum_k \\log(1 - \\frac{e^{q_{ik}}}{Z_i})

    Args:
        x (~chainer.Variable or N-dimensional array): Inputs of shape
            ``(B, D)`` (float).
        t (~chainer.Variable or N-dimensional array): Target rows of ``W``,
            of shape ``(B,)`` (int).
        W (~chainer.Variable or N-dimensional array): Output embeddings of
            shape ``(V, D)``.
        samples (~chainer.Variable or N-dimensional array): Negative samples
            of shape ``(B, K)`` (int), rows of ``W``; samples of shape ``(K,)``
            are the same for every row of the batch (as in Chainer).
        reduce (str): ``'mean'`` (sum over the batch divided by ``B``) or
            ``'no'``.

    Returns:
        ~chainer.Variable: The loss.

    .. admonition:: Example

        >>> x = np.zeros((1, 2), 'f'); W = np.zeros((3, 2), 'f')
        >>> loss = F.black_out(x, np.array([0], 'i'), W, np.array([[1, 2]], 'i'))
        >>> round(float(loss.array), 4)  # log 3 - 2 log(2/3): three equal scores
        1.9095
    """
    _common.check_reduce('black_out', reduce, ('mean', 'no'))
    F = chainer.functions
    x_array = _common.array_arg('black_out', 'x', x)
    t = _common.array_arg('black_out', 't', t)
    _common.array_arg('black_out', 'W', W)
    samples = _common.array_arg('black_out', 'samples', samples)
    if samples.ndim == 1:
        # one set of samples shared by the batch, which Chainer 7.8.1 broadcasts
        xp = chainer.backend.get_array_module(samples)
        samples = xp.broadcast_to(samples, (x_array.shape[0],) + samples.shape)
    if t.ndim != 1 or t.shape[0] != x_array.shape[0]:
        raise type_check.InvalidType(
            't.shape == (x.shape[0],)', f'{t.shape}',
            f'black_out: t must have shape ({x_array.shape[0]},), got {t.shape}')
    if samples.ndim != 2 or samples.shape[0] != x_array.shape[0]:
        raise type_check.InvalidType(
            'samples.shape == (x.shape[0], K)', f'{samples.shape}',
            f'black_out: samples must have shape ({x_array.shape[0]}, K), got {samples.shape}')
    _common.check_labels('black_out', t, W.shape[0])
    _common.check_labels('black_out', samples, W.shape[0], name='samples')
    batch = x.shape[0]
    if x.dtype != W.dtype and x.dtype.kind == 'f' and W.dtype.kind == 'f':
        # two float dtypes: computed in the promoted one, as in Chainer 7.8.1
        dtype = numpy.promote_types(x.dtype, W.dtype)
        x, W = F.cast(x, dtype), F.cast(W, dtype)
    pos = F.sum(F.get_item(W, t) * x, axis=1)                         # (B,)
    xb = F.broadcast_to(F.expand_dims(x, 1), (batch, samples.shape[1], x.shape[1]))
    neg = F.sum(F.get_item(W, samples) * xb, axis=2)                   # (B, K)
    logz = F.logsumexp(F.concat((F.expand_dims(pos, 1), neg), axis=1), axis=1)
    # log(1 - e^{q - logz}) is log1p(-e^{q - logz}); q < logz, so it is finite.
    ny = F.log1p(-F.exp(neg - F.broadcast_to(F.expand_dims(logz, 1), neg.shape)))
    loss = -(pos - logz + F.sum(ny, axis=1))
    if reduce == 'mean':
        loss = F.sum(loss) / batch
    return loss
