"""Stacked GRUs over variable-length mini-batches of sequences."""
import chainer
from chainer.functions.rnn import _n_step


class _GRU:
    """``ws[i] = [W_r, W_z, W_a]`` for the input, then the same three for the state."""

    n_weights = 6

    def prepare(self, w, b):
        F = chainer.functions
        # One product per side gives the three gates side by side: [r | z | a].
        return (F.concat(w[:3], 0), F.concat(w[3:], 0),
                F.concat(b[:3], 0), F.concat(b[3:], 0))

    def project(self, x, params):
        return _n_step.linear(x, params[0], params[2])

    def step(self, pre, h, c, params):
        F = chainer.functions
        n = h.shape[1]
        hh = _n_step.linear(h, params[1], params[3])
        pre_rz, pre_a = F.split_axis(pre, [2 * n], 1)
        hh_rz, hh_a = F.split_axis(hh, [2 * n], 1)
        r, z = F.split_axis(F.sigmoid(pre_rz + hh_rz), [n], 1)
        # NOTE: the reset gate scales the state's contribution including its bias b_5.
        a = F.tanh(pre_a + r * hh_a)
        return a + z * (h - a), None


def n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, use_bi_direction, **kwargs):
    """Stacked uni- or bidirectional GRU (the body of :func:`n_step_gru` and
    :func:`n_step_bigru`).

    Each layer and direction computes, for every time step ``t``,

    .. math::
        r_t &= \\sigma(W_0 x_t + b_0 + W_3 h_{t-1} + b_3), \\\\
        z_t &= \\sigma(W_1 x_t + b_1 + W_4 h_{t-1} + b_4), \\\\
        a_t &= \\tanh(W_2 x_t + b_2 + r_t \\odot (W_5 h_{t-1} + b_5)), \\\\
        h_t &= (1 - z_t) \\odot a_t + z_t \\odot h_{t-1}.

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
        hx (~chainer.Variable or N-dimensional array): Initial states, of shape
            ``(n_layers * n_dirs, B, N)``; index ``l * n_dirs + d`` is layer
            ``l``, direction ``d`` (0 forward, 1 backward).
        ws (list of lists): ``ws[l * n_dirs + d]`` holds six matrices:
            ``W_0 .. W_2`` of shape ``(N, I)`` (``I`` is the input size for the
            first layer, ``n_dirs * N`` afterwards) and ``W_3 .. W_5`` of shape
            ``(N, N)``.
        bs (list of lists): ``bs[l * n_dirs + d]`` holds six ``(N,)`` biases.
        xs (list of ~chainer.Variable): ``T`` inputs; ``xs[t]`` has shape
            ``(b_t, I)`` with ``b_t <= B``.
        use_bi_direction (bool): Whether the layers are bidirectional.

    Returns:
        tuple: ``(hy, ys)``: the final states (the shape of ``hx``) and a
        tuple of ``T`` outputs of shape ``(b_t, n_dirs * N)``.
    """
    _n_step.check_kwargs('n_step_gru_base', kwargs)
    name = 'n_step_bigru' if use_bi_direction else 'n_step_gru'
    hy, _, ys = _n_step.run(_GRU(), name, n_layers, dropout_ratio, hx, None, ws, bs, xs,
                            use_bi_direction)
    return hy, ys


def n_step_gru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """Stacked unidirectional GRU over a variable-length mini-batch.

    See :func:`n_step_gru_base` for the formulas and the layout of the
    arguments (with ``n_dirs = 1``).

    Returns:
        tuple: ``(hy, ys)``.

    .. admonition:: Example

        >>> n_layers, batch, in_size, units = 1, 2, 3, 4
        >>> hx = np.zeros((n_layers, batch, units), np.float32)
        >>> ws = [[np.ones((units, in_size), np.float32)] * 3
        ...       + [np.ones((units, units), np.float32)] * 3]
        >>> bs = [[np.zeros(units, np.float32)] * 6]
        >>> xs = [np.ones((2, in_size), np.float32), np.ones((1, in_size), np.float32)]
        >>> hy, ys = F.n_step_gru(n_layers, 0.0, hx, ws, bs, xs)
        >>> hy.shape, [y.shape for y in ys]
        ((1, 2, 4), [(2, 4), (1, 4)])
    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, False, **kwargs)


def n_step_bigru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """Stacked bidirectional GRU over a variable-length mini-batch.

    See :func:`n_step_gru_base` for the formulas and the layout of the
    arguments (with ``n_dirs = 2``).

    Returns:
        tuple: ``(hy, ys)``; ``ys[t]`` has ``2 * N`` columns, forward outputs first.

    .. admonition:: Example

        >>> n_layers, batch, in_size, units = 1, 2, 3, 4
        >>> hx = np.zeros((2 * n_layers, batch, units), np.float32)
        >>> w = [np.ones((units, in_size), np.float32)] * 3 + \\
        ...     [np.ones((units, units), np.float32)] * 3
        >>> b = [np.zeros(units, np.float32)] * 6
        >>> xs = [np.ones((2, in_size), np.float32), np.ones((1, in_size), np.float32)]
        >>> hy, ys = F.n_step_bigru(n_layers, 0.0, hx, [w, w], [b, b], xs)
        >>> hy.shape, [y.shape for y in ys]
        ((2, 2, 4), [(2, 8), (1, 8)])
    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, True, **kwargs)
