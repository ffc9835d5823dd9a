"""Linear-chain conditional random field: its loss and its Viterbi decoding."""
import numpy

import chainer
from chainer import backend
from chainer.functions import _checks
from chainer.functions.loss import _common


def _check_cost(func, cost):
    # a (K, K) matrix of transition scores
    shape = _common.array_arg(func, 'cost', cost).shape
    if len(shape) != 2 or shape[0] != shape[1]:
        _checks._fail(None, 'cost.ndim == 2 and cost.shape[0] == cost.shape[1]',
                      f'cost.shape == {shape}',
                      f'{func}: cost must be a square matrix of shape (K, K) for K labels')


def _check_batches(func, xs):
    _checks.arrays_of(func, 'xs', xs)
    sizes = [x.shape[0] for x in xs]
    if not sizes or any(a < b for a, b in zip(sizes, sizes[1:])):
        raise ValueError(f'{func}: xs must be a non-empty list whose batch sizes do not '
                         f'increase (sort the sequences by decreasing length), got {sizes}')


def _transitions(alpha, cost, b):
    # s[n, i, j] = alpha[n, i] + cost[i, j]: the score of moving from label i to j.
    F = chainer.functions
    k = cost.shape[0]
    return F.broadcast_to(F.expand_dims(alpha, 2), (b, k, k)) + F.broadcast_to(cost, (b, k, k))


def _forward(xs, cost, reduce_step):
    """Runs the recursion ``alpha <- reduce_step(alpha + cost) + x`` over the steps.

    Returns the final ``alpha`` of every sequence (in batch order) and what
    ``reduce_step`` returned beside each new alpha.
    """
    F = chainer.functions
    alpha = chainer.as_variable(xs[0])
    ended = []
    extras = []
    for x in xs[1:]:
        b = x.shape[0]
        if alpha.shape[0] > b:
            alpha, done = F.split_axis(alpha, [b], axis=0)
            ended.append(done)
        new, extra = reduce_step(_transitions(alpha, cost, b))
        extras.append(extra)
        alpha = new + x
    ended.append(alpha)
    return F.concat(ended[::-1], axis=0) if len(ended) > 1 else alpha, extras


def crf1d(cost, xs, ys, reduce='mean'):
    """Negative log-likelihood of label sequences under a linear-chain CRF.

    .. math::
        l = \\log Z(x) - \\Big(\\sum_t x_{t, y_t} + \\sum_t c_{y_{t-1}, y_t}\\Big),
        \\quad Z(x) = \\sum_{y'} \\exp(\\mathrm{score}(y'))

    computed in log space (the forward algorithm over ``logsumexp``).

    Args:
        cost (~chainer.Variable or N-dimensional array): Transition scores
            :math:`c` of shape ``(K, K)`` (float).
        xs (list of ~chainer.Variable or N-dimensional array): Per-step
            label scores, ``xs[t]`` of shape ``(B_t, K)``; the batch sizes
            do not increase (sequences sorted by decreasing length, as
            :func:`~chainer.functions.transpose_sequence` gives).
        ys (list of ~chainer.Variable or N-dimensional array): Per-step
            labels, ``ys[t]`` of shape ``(B_t,)`` (int).
        reduce (str): ``'mean'`` (sum over sequences divided by ``B_0``) or
            ``'no'`` (per sequence).

    Returns:
        ~chainer.Variable: The loss.

    .. admonition:: Example

        >>> cost = np.zeros((2, 2), 'f')
        >>> xs = [np.zeros((1, 2), 'f')] * 2
        >>> F.crf1d(cost, xs, [np.array([0], 'i')] * 2).array
        array(1.3862944, dtype=float32)
    """
    _common.check_reduce('crf1d', reduce, ('mean', 'no'))
    F = chainer.functions
    _check_cost('crf1d', cost)
    _check_batches('crf1d', xs)
    _checks.arrays_of('crf1d', 'ys', ys)
    if len(ys) != len(xs):
        raise ValueError(f'crf1d: ys must have one entry per step of xs ({len(xs)}), '
                         f'got {len(ys)}')
    ys = [_common.array_arg('crf1d', 'ys[i]', y) for y in ys]
    k = cost.shape[0]
    for y in ys:
        _common.check_labels('crf1d', y, k, name='ys')
    alpha, _ = _forward(xs, cost, lambda s: (F.logsumexp(s, axis=1), None))
    logz = F.logsumexp(alpha, axis=1)

    xp = backend.get_array_module(ys[0])
    b0 = xs[0].shape[0]
    flat_cost = F.reshape(cost, (-1,))
    score = None
    for i, (x, y) in enumerate(zip(xs, ys)):
        s = F.select_item(x, y)
        if i:
            s = s + F.get_item(flat_cost, ys[i - 1][:len(y)] * k + y)
        if len(y) < b0:
            s = F.concat((s, xp.zeros((b0 - len(y),), s.dtype)), axis=0)
        score = s if score is None else score + s
    loss = logz - score
    if reduce == 'mean':
        loss = F.sum(loss) / b0
    return loss


def argmax_crf1d(cost, xs):
    """Most likely label sequences under a linear-chain CRF (Viterbi decoding).

    Args:
        cost (~chainer.Variable or N-dimensional array): Transition scores
            of shape ``(K, K)`` (float).
        xs (list of ~chainer.Variable or N-dimensional array): Per-step
            label scores, ``xs[t]`` of shape ``(B_t, K)`` with non-increasing
            batch sizes.

    Returns:
        tuple: The best path's score per sequence (a :class:`~chainer.Variable`
        of shape ``(B_0,)``) and the path, a list of integer arrays whose
        ``t``-th entry has shape ``(B_t,)``.

    .. admonition:: Example

        >>> cost = np.zeros((2, 2), 'f')
        >>> xs = [np.array([[0., 1.]], 'f'), np.array([[2., 0.]], 'f')]
        >>> score, path = F.argmax_crf1d(cost, xs)
        >>> score.array, [p.tolist() for p in path]
        (array([3.], dtype=float32), [[1], [0]])
    """
    F = chainer.functions
    _check_cost('argmax_crf1d', cost)
    _check_batches('argmax_crf1d', xs)

    def best(s):
        return F.max(s, axis=1), s.array.argmax(axis=1)

    alpha, back = _forward(xs, cost, best)
    score = F.max(alpha, axis=1)
    xp = backend.get_array_module(alpha.array)
    cur = alpha.array.argmax(axis=1).astype(numpy.int32)     # labels are int32, as in Chainer
    path = [cur[:xs[-1].shape[0]]]
    # Walk back: a sequence still running at step t takes its previous label
    # from the back-pointers; one that ended keeps its own last label.
    for t in range(len(xs) - 1, 0, -1):
        ptr = back[t - 1]
        b = ptr.shape[0]
        cur = cur.copy()
        cur[:b] = ptr[xp.arange(b), cur[:b]]
        path.append(cur[:xs[t - 1].shape[0]])
    return score, path[::-1]
