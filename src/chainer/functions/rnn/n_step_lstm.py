"""Stacked LSTMs over variable-length mini-batches of sequences."""
import chainer
from chainer.functions.rnn import _n_step


def _interleave(arrays):
    # F.lstm wants the four gates interleaved unit by unit (row 4k + j is gate j
    # of unit k), so the per-gate blocks are stacked on a new axis 1 and merged.
    F = chainer.functions
    w = F.stack(arrays, 1)
    return F.reshape(w, (w.shape[0] * 4,) + w.shape[2:])


class _LSTM:
    """``ws[i] = [W_i, W_f, W_a, W_o]`` for the input, then the same four for the state."""

    n_weights = 8

    def prepare(self, w, b):
        # F.lstm's gate order is (a, i, f, o).
        order = (2, 0, 1, 3)
        wx = _interleave([w[k] for k in order])
        wh = _interleave([w[k + 4] for k in order])
        bias = _interleave([b[k] for k in order]) + _interleave([b[k + 4] for k in order])
        return wx, wh, bias

    def project(self, x, params):
        return _n_step.linear(x, params[0], params[2])

    def step(self, pre, h, c, params):
        c, h = chainer.functions.lstm(c, pre + _n_step.linear(h, params[1]))
        return h, c


def n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction, **kwargs):
    """Stacked uni- or bidirectional LSTM (the body of :func:`n_step_lstm` and
    :func:`n_step_bilstm`).

    Each layer and direction computes, for every time step ``t``,

    .. math::
        i_t &= \\sigma(W_0 x_t + W_4 h_{t-1} + b_0 + b_4), \\\\
        f_t &= \\sigma(W_1 x_t + W_5 h_{t-1} + b_1 + b_5), \\\\
        a_t &= \\tanh(W_2 x_t + W_6 h_{t-1} + b_2 + b_6), \\\\
        o_t &= \\sigma(W_3 x_t + W_7 h_{t-1} + b_3 + b_7), \\\\
        c_t &= f_t \\odot c_{t-1} + i_t \\odot a_t, \\\\
        h_t &= o_t \\odot \\tanh(c_t).

    ``xs[t]`` holds time step ``t`` of the batch: its row ``i`` belongs to
    sequence ``i``, and a step with ``b_t`` rows advances only the states of
    sequences ``0 .. b_t - 1`` (sort sequences by decreasing length, e.g. with
    :func:`~chainer.functions.transpose_sequence`). A bidirectional layer runs
    a second recurrence from the last step back to the first and passes
    ``[forward, backward]`` outputs to the next layer.

    Args:
        n_layers (int): Number of layers.
        dropout_ratio (float): Dropout ratio applied to the inputs of every
            layer after the first (in training mode only).
        hx (~chainer.Variable or N-dimensional array): Initial hidden states,
            of shape ``(n_layers * n_dirs, B, N)``; index ``l * n_dirs + d`` is
            layer ``l``, direction ``d`` (0 forward, 1 backward).
        cx (~chainer.Variable or N-dimensional array): Initial cell states,
            of the shape of ``hx``.
        ws (list of lists): ``ws[l * n_dirs + d]`` holds eight matrices:
            ``W_0 .. W_3`` of shape ``(N, I)`` (``I`` is the input size for the
            first layer, ``n_dirs * N`` afterwards) and ``W_4 .. W_7`` of shape
            ``(N, N)``.
        bs (list of lists): ``bs[l * n_dirs + d]`` holds eight ``(N,)`` biases.
        xs (list of ~chainer.Variable): ``T`` inputs; ``xs[t]`` has shape
            ``(b_t, I)`` with ``b_t <= B``.
        use_bi_direction (bool): Whether the layers are bidirectional.

    Returns:
        tuple: ``(hy, cy, ys)``: the final hidden and cell states (the shape of
        ``hx``) and a tuple of ``T`` outputs of shape ``(b_t, n_dirs * N)``.
    """
    _n_step.check_kwargs('n_step_lstm_base', kwargs)
    name = 'n_step_bilstm' if use_bi_direction else 'n_step_lstm'
    if cx is None:
        raise TypeError(f'{name} requires the initial cell states cx, got None')
    return _n_step.run(_LSTM(), name, n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                       use_bi_direction)


def n_step_lstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """Stacked unidirectional LSTM over a variable-length mini-batch.

    See :func:`n_step_lstm_base` for the formulas and the layout of the
    arguments (with ``n_dirs = 1``).

    Returns:
        tuple: ``(hy, cy, ys)``.

    .. admonition:: Example

        >>> n_layers, batch, in_size, units = 1, 2, 3, 4
        >>> hx = np.zeros((n_layers, batch, units), np.float32)
        >>> cx = np.zeros((n_layers, batch, units), np.float32)
        >>> ws = [[np.ones((units, in_size), np.float32)] * 4
        ...       + [np.ones((units, units), np.float32)] * 4]
        >>> bs = [[np.zeros(units, np.float32)] * 8]
        >>> xs = [np.ones((2, in_size), np.float32), np.ones((1, in_size), np.float32)]
        >>> hy, cy, ys = F.n_step_lstm(n_layers, 0.0, hx, cx, ws, bs, xs)
        >>> hy.shape, cy.shape, [y.shape for y in ys]
        ((1, 2, 4), (1, 2, 4), [(2, 4), (1, 4)])
    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs, False, **kwargs)


def n_step_bilstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """Stacked bidirectional LSTM over a variable-length mini-batch.

    See :func:`n_step_lstm_base` for the formulas and the layout of the
    arguments (with ``n_dirs = 2``).

    Returns:
        tuple: ``(hy, cy, ys)``; ``ys[t]`` has ``2 * N`` columns, forward
        outputs first.

    .. admonition:: Example

        >>> n_layers, batch, in_size, units = 1, 2, 3, 4
        >>> hx = np.zeros((2 * n_layers, batch, units), np.float32)
        >>> w = [np.ones((units, in_size), np.float32)] * 4 + \\
        ...     [np.ones((units, units), np.float32)] * 4
        >>> b = [np.zeros(units, np.float32)] * 8
        >>> xs = [np.ones((2, in_size), np.float32), np.ones((1, in_size), np.float32)]
        >>> hy, cy, ys = F.n_step_bilstm(n_layers, 0.0, hx, hx, [w, w], [b, b], xs)
        >>> hy.shape, [y.shape for y in ys]
        ((2, 2, 4), [(2, 8), (1, 8)])
    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs, True, **kwargs)
