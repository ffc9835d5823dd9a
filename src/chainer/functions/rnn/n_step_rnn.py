"""Stacked Elman RNNs (tanh or ReLU) over variable-length mini-batches of sequences."""
import chainer
from chainer.functions.rnn import _n_step

_ACTIVATIONS = ('tanh', 'relu')


class _Elman:
    """``h_t = act(W0 x_t + b0 + W1 h_{t-1} + b1)``."""

    n_weights = 2

    def __init__(self, activation):
        self.activation = getattr(chainer.functions, activation)

    def prepare(self, w, b):
        return w[0], w[1], b[0] + b[1]

    def project(self, x, params):
        return _n_step.linear(x, params[0], params[2])

    def step(self, pre, h, c, params):
        return self.activation(pre + _n_step.linear(h, params[1])), None


class _StepFunction:
    """A Chainer-style cell ``f(x, h, c, w, b) -> (h, c)`` given the raw inputs."""

    n_weights = None  # any layout: the shapes are f's business

    def __init__(self, f):
        self.f = f

    def prepare(self, w, b):
        return w, b

    def project(self, x, params):
        return x

    def step(self, pre, h, c, params):
        return self.f(pre, h, c, *params)


def n_step_rnn_impl(f, n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction):
    """Runs a stacked (bi)directional recurrence with a user-given cell.

    ``f(x, h, c, w, b)`` computes one time step of one layer and direction:
    ``x`` is the ``(b_t, in_size)`` input, ``h`` and ``c`` are the first ``b_t``
    rows of the states (``c`` is ``None`` when ``cx`` is), ``w`` and ``b`` are
    the weight and bias lists of that layer; it returns the new ``(h, c)``.
    The layout of ``hx``, ``ws``, ``bs`` and ``xs`` is that of
    :func:`n_step_rnn_base`; dropout is applied to the inputs of every layer
    but the first.

    Returns:
        tuple: ``(hy, cy, ys)``; ``cy`` is ``None`` when ``cx`` is.
    """
    return _n_step.run(_StepFunction(f), 'n_step_rnn_impl', n_layers, dropout_ratio,
                       hx, cx, ws, bs, xs, use_bi_direction)


def n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation, use_bi_direction,
                    **kwargs):
    """Stacked uni- or bidirectional Elman RNN (the body of :func:`n_step_rnn` and
    :func:`n_step_birnn`).

    Each layer and direction computes, for every time step ``t``,

    .. math::
        h_t = f(W_0 x_t + b_0 + W_1 h_{t-1} + b_1),

    with :math:`f` = ``tanh`` or ``relu``. ``xs[t]`` holds time step ``t`` of the
    batch: its row ``i`` belongs to sequence ``i``, and a step with ``b_t`` rows
    advances only the states of sequences ``0 .. b_t - 1`` (sort sequences by
    decreasing length, e.g. with :func:`~chainer.functions.transpose_sequence`).
    A bidirectional layer runs a second recurrence from the last step back to
    the first and passes ``[forward, backward]`` outputs to the next layer.

    Args:
        n_layers (int): Number of layers.
        dropout_ratio (float): Dropout ratio applied to the inputs of every
            layer after the first (in training mode only).
        hx (~chainer.Variable or N-dimensional array): Initial states, of shape
            ``(n_layers * n_dirs, B, N)``; index ``l * n_dirs + d`` is layer
            ``l``, direction ``d`` (0 forward, 1 backward).
        ws (list of lists): ``ws[l * n_dirs + d]`` is ``[W_0, W_1]`` with
            ``W_0`` of shape ``(N, I)`` (``I`` is the input size for the first
            layer, ``n_dirs * N`` afterwards) and ``W_1`` of shape ``(N, N)``.
        bs (list of lists): ``bs[l * n_dirs + d]`` is ``[b_0, b_1]``, each ``(N,)``.
        xs (list of ~chainer.Variable): ``T`` inputs; ``xs[t]`` has shape
            ``(b_t, I)`` with ``b_t <= B``.
        activation (str): ``'tanh'`` or ``'relu'``.
        use_bi_direction (bool): Whether the layers are bidirectional.

    Returns:
        tuple: ``(hy, ys)``: the final states (the shape of ``hx``) and a
        tuple of ``T`` outputs of shape ``(b_t, n_dirs * N)``.
    """
    _n_step.check_kwargs('n_step_rnn_base', kwargs)
    if activation not in _ACTIVATIONS:
        raise ValueError(f'Invalid activation: "{activation}". Please select from [tanh,relu]')
    name = 'n_step_birnn' if use_bi_direction else 'n_step_rnn'
    hy, _, ys = _n_step.run(_Elman(activation), name, n_layers, dropout_ratio, hx, None, ws, bs,
                            xs, use_bi_direction)
    return hy, ys


def n_step_rnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh', **kwargs):
    """Stacked unidirectional Elman RNN over a variable-length mini-batch.

    See :func:`n_step_rnn_base` for the formula and the layout of the
    arguments (with ``n_dirs = 1``).

    Returns:
        tuple: ``(hy, ys)``.

    .. admonition:: Example

        >>> n_layers, batch, in_size, units = 1, 2, 3, 4
        >>> hx = np.zeros((n_layers, batch, units), np.float32)
        >>> ws = [[np.ones((units, in_size), np.float32), np.ones((units, units), np.float32)]]
        >>> bs = [[np.zeros(units, np.float32), np.zeros(units, np.float32)]]
        >>> xs = [np.ones((2, in_size), np.float32), np.ones((1, in_size), np.float32)]
        >>> hy, ys = F.n_step_rnn(n_layers, 0.0, hx, ws, bs, xs)
        >>> hy.shape, [y.shape for y in ys]
        ((1, 2, 4), [(2, 4), (1, 4)])
    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation, False, **kwargs)


def n_step_birnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh', **kwargs):
    """Stacked bidirectional Elman RNN over a variable-length mini-batch.

    See :func:`n_step_rnn_base` for the formula and the layout of the
    arguments (with ``n_dirs = 2``).

    Returns:
        tuple: ``(hy, ys)``; ``ys[t]`` has ``2 * N`` columns, forward outputs first.

    .. admonition:: Example

        >>> n_layers, batch, in_size, units = 1, 2, 3, 4
        >>> hx = np.zeros((2 * n_layers, batch, units), np.float32)
        >>> w = [np.ones((units, in_size), np.float32), np.ones((units, units), np.float32)]
        >>> b = [np.zeros(units, np.float32), np.zeros(units, np.float32)]
        >>> xs = [np.ones((2, in_size), np.float32), np.ones((1, in_size), np.float32)]
        >>> hy, ys = F.n_step_birnn(n_layers, 0.0, hx, [w, w], [b, b], xs)
        >>> hy.shape, [y.shape for y in ys]
        ((2, 2, 4), [(2, 8), (1, 8)])
    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation, True, **kwargs)
