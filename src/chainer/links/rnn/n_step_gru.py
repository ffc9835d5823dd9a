"""Stacked GRU links over variable-length sequences."""
from chainer.functions.rnn import n_step_gru as rnn
from chainer.links.rnn import n_step_rnn


class NStepGRUBase(n_step_rnn.NStepRNNBase):
    """Base of :class:`NStepGRU` and :class:`NStepBiGRU`: six weights and biases per cell
    (``w0..w2`` on the input, ``w3..w5`` on the state; see
    :func:`~chainer.functions.n_step_gru`)."""

    n_weights = 6


class NStepGRU(NStepGRUBase):
    """Stacked unidirectional GRU.

    Args: as :class:`~chainer.links.rnn.n_step_rnn.NStepRNNBase`.

    .. admonition:: Example

        >>> gru = L.NStepGRU(1, 3, 2, 0.0)
        >>> hy, ys = gru(None, [np.ones((4, 3), np.float32), np.ones((2, 3), np.float32)])
        >>> hy.shape, [y.shape for y in ys]
        ((1, 2, 2), [(4, 2), (2, 2)])
    """

    def rnn(self, *args):
        return rnn.n_step_gru(*args)


class NStepBiGRU(NStepGRUBase):
    """Stacked bidirectional GRU (outputs ``[forward, backward]``, ``2 * out_size`` wide)."""

    use_bi_direction = True

    def rnn(self, *args):
        return rnn.n_step_bigru(*args)
