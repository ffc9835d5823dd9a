"""Connectionist temporal classification (CTC) loss, computed in log space."""
import collections.abc

import numpy

import chainer
from chainer import backend
from chainer import function
from chainer.functions.activation import log_softmax as _log_softmax
from chainer.functions import _checks
from chainer.functions.loss import _common
from chainer.utils import type_check

_FUNC = 'connectionist_temporal_classification'
# log(0) as a finite number: an impossible alignment gives a large finite loss
# (as Chainer's does) instead of inf and NaN gradients.
_LOG_ZERO = -1e10


def _logsumexp3(a, b, c, xp):
    m = xp.maximum(xp.maximum(a, b), c)
    return m + xp.log(xp.exp(a - m) + xp.exp(b - m) + xp.exp(c - m))


def _shift(a, k, xp):
    """``a`` moved ``k`` places along the last axis (positive: right), padded with log 0."""
    out = xp.full_like(a, _LOG_ZERO)
    if k > 0:
        out[..., k:] = a[..., :-k]
    else:
        out[..., :k] = a[..., -k:]
    return out


class ConnectionistTemporalClassification(function.Function):
    """CTC loss of per-step scores against label sequences (old-style Function,
    as in Chainer: its gradient is not differentiable)."""

    def __init__(self, blank_symbol, reduce='mean'):
        _common.check_reduce(_FUNC, reduce, ('mean', 'no'))
        self.blank_symbol = blank_symbol
        self.reduce = reduce

    def check_type_forward(self, in_types):
        n_step = type_check.eval(in_types.size()) - 3
        type_check._argname(in_types, ('input_length', 'label_length', 't')
                            + tuple(f'x[{i}]' for i in range(n_step)))
        length, label_length, t = in_types[:3]
        type_check.expect(
            length.dtype.kind == 'i', label_length.dtype.kind == 'i', t.dtype.kind == 'i',
            t.ndim == 2, length.ndim == 1, label_length.ndim == 1,
            length.shape[0] == t.shape[0], label_length.shape[0] == t.shape[0])
        for x_type in in_types[3:]:
            type_check.expect(x_type.dtype.kind == 'f', x_type.dtype == in_types[3].dtype,
                              x_type.shape == in_types[3].shape, x_type.ndim == 2,
                              x_type.shape[0] == t.shape[0])

    def forward(self, inputs):
        length, label_length, t = inputs[:3]
        xs = inputs[3:]
        xp = backend.get_array_module(t)
        n_step, batch, n_class = len(xs), t.shape[0], xs[0].shape[1]
        self._check_values(xp, length, label_length, t, n_step, n_class)
        dtype = xs[0].dtype
        x = xp.stack(xs)
        work = numpy.float32 if dtype == numpy.float16 else dtype
        log_y = _log_softmax._log_softmax(x.astype(work, copy=False), 2)

        # The label sequence with blanks around and between the labels: (B, U).
        u = 2 * t.shape[1] + 1
        path = xp.full((batch, u), self.blank_symbol, t.dtype)
        path[:, 1::2] = t
        path_length = 2 * label_length + 1
        # A label may be skipped to from two places back unless it is a blank or
        # repeats the label there.
        skip = xp.ones((batch, u), bool)
        skip[:, :2] = False
        skip[:, 2:] = (path[:, 2:] != self.blank_symbol) & (path[:, 2:] != path[:, :-2])
        beyond = xp.arange(u)[None, :] >= path_length[:, None]
        rows = xp.arange(batch)[:, None]
        emit = log_y[:, rows, path]                                    # (T, B, U)
        emit = xp.where(beyond[None], _LOG_ZERO, emit)

        alpha = xp.empty((n_step, batch, u), work)
        a = xp.full((batch, u), _LOG_ZERO, work)
        a[:, :2] = emit[0, :, :2]
        alpha[0] = a
        for s in range(1, n_step):
            prev = a
            a = _logsumexp3(prev, _shift(prev, 1, xp),
                            xp.where(skip, _shift(prev, 2, xp), _LOG_ZERO), xp) + emit[s]
            # A finished input keeps its last alpha.
            a = xp.where((s < length)[:, None], a, prev)
            alpha[s] = a

        b_idx = xp.arange(batch)
        last = path_length - 1
        ll = xp.logaddexp(a[b_idx, last], a[b_idx, xp.maximum(last - 1, 0)])
        self._saved = (log_y, emit, alpha, skip, path, ll, length, last, work)
        loss = -ll
        if self.reduce == 'mean':
            loss = loss.mean()
        return xp.asarray(loss, dtype),

    def _check_values(self, xp, length, label_length, t, n_step, n_class):
        if not 0 <= self.blank_symbol < n_class:
            raise ValueError(f'{_FUNC}: blank_symbol {self.blank_symbol} is out of range '
                             f'for {n_class} classes')
        if not _common.should_check_values(xp):
            return
        if bool((length > n_step).any()) or bool((length < 1).any()):
            raise ValueError(f'{_FUNC}: input_length must be in [1, {n_step}] (the number '
                             f'of steps of x), got {length.tolist()}')
        if bool((label_length > t.shape[1]).any()) or bool((label_length < 0).any()):
            raise ValueError(f'{_FUNC}: label_length must be in [0, {t.shape[1]}] (the '
                             f'length of t), got {label_length.tolist()}')
        if bool((label_length > length).any()):
            raise ValueError(f'{_FUNC}: a label sequence is longer than its input: '
                             f'label_length {label_length.tolist()}, input_length '
                             f'{length.tolist()}')
        valid = xp.arange(t.shape[1])[None, :] < label_length[:, None]
        _common.check_labels(_FUNC, t[valid], n_class)

    def backward(self, inputs, grad_outputs):
        xp = backend.get_array_module(inputs[2])
        log_y, emit, alpha, skip, path, ll, length, last, work = self._saved
        n_step, batch, u = alpha.shape
        b_idx = xp.arange(batch)
        # beta[s, b, u]: log-probability of the rest of the path from (s, u), emission included.
        beta = xp.full((n_step, batch, u), _LOG_ZERO, work)
        skip_from = _shift(skip, -2, xp)     # u may jump to u + 2 where u + 2 may be skipped to
        b = xp.full((batch, u), _LOG_ZERO, work)
        for s in range(n_step - 1, -1, -1):
            step = _logsumexp3(b, _shift(b, -1, xp),
                               xp.where(skip_from, _shift(b, -2, xp), _LOG_ZERO), xp) + emit[s]
            start = xp.full((batch, u), _LOG_ZERO, work)
            start[b_idx, last] = emit[s, b_idx, last]
            start[b_idx, xp.maximum(last - 1, 0)] = emit[s, b_idx, xp.maximum(last - 1, 0)]
            b = xp.where((s == length - 1)[:, None], start,
                         xp.where((s < length - 1)[:, None], step, _LOG_ZERO))
            beta[s] = b
        occupancy = xp.exp(alpha + beta - emit - ll[None, :, None])   # (T, B, U)
        onehot = (path[:, :, None] == xp.arange(log_y.shape[2])[None, None, :]).astype(work)
        posterior = xp.einsum('sbu,buk->sbk', occupancy, onehot)
        gx = xp.exp(log_y) - posterior
        gx *= (xp.arange(n_step)[:, None] < length[None, :])[:, :, None]
        gy = grad_outputs[0]
        if self.reduce == 'mean':
            gx *= gy / batch
        else:
            gx *= gy[None, :, None]
        dtype = inputs[3].dtype
        return (None, None, None) + tuple(g.astype(dtype, copy=False) for g in gx)


def connectionist_temporal_classification(x, t, blank_symbol, input_length=None,
                                          label_length=None, reduce='mean'):
    """Connectionist temporal classification loss (Graves et al., 2006).

    The negative log of the total probability, summed over every alignment,
    that the per-step softmax outputs spell ``t`` once repeats are merged and
    blanks removed. Computed with the forward-backward algorithm in log space.

    Args:
        x (list or tuple of ~chainer.Variable or N-dimensional array): The
            unnormalized scores of each step, each of shape ``(B, V)``
            (float).
        t (~chainer.Variable or N-dimensional array): Label sequences of
            shape ``(B, L)`` (int), padded past ``label_length``.
        blank_symbol (int): The class of the blank, in ``[0, V)``.
        input_length (~chainer.Variable or N-dimensional array): Number of
            steps of each sequence, shape ``(B,)`` (int); default all ``len(x)``.
        label_length (~chainer.Variable or N-dimensional array): Number of
            labels of each sequence, shape ``(B,)`` (int); default all ``L``.
        reduce (str): ``'mean'`` (over the batch) or ``'no'``.

    Returns:
        ~chainer.Variable: The loss, of the dtype of ``x``.

    Raises:
        TypeError: ``x`` is not a list or tuple.
        ValueError: a label sequence is longer than its input, a length or
            label is out of range.

    .. admonition:: Example

        >>> x = [np.zeros((1, 2), 'f')] * 2
        >>> F.connectionist_temporal_classification(x, np.array([[1]], 'i'), 0).array
        array(0.2876821, dtype=float32)
    """
    if not isinstance(x, collections.abc.Sequence):
        raise TypeError(f'{_FUNC}: x must be a list or tuple of per-step arrays, got '
                        f'{type(x).__name__}')
    if len(x) == 0:
        raise ValueError(f'{_FUNC}: x must have at least one step')
    t_shape = _checks.shape_of(_FUNC, 't', t)
    if len(t_shape) != 2:
        raise type_check.InvalidType('t.ndim == 2', f'{len(t_shape)} != 2',
                                     f'{_FUNC}: t must hold the labels of each sequence, of '
                                     f'shape (B, L), got shape {tuple(t_shape)}')
    xp = backend.get_array_module(chainer.as_array(t))
    batch = t.shape[0]
    if input_length is None:
        input_length = xp.full((batch,), len(x), numpy.int32)
    if label_length is None:
        label_length = xp.full((batch,), t.shape[1], numpy.int32)
    return ConnectionistTemporalClassification(blank_symbol, reduce)(
        input_length, label_length, t, *x)
