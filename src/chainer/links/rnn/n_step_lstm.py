"""Stacked LSTM links over variable-length sequences."""
from chainer.functions.rnn import n_step_lstm as rnn
from chainer.links.rnn import n_step_rnn


class NStepLSTMBase(n_step_rnn.NStepRNNBase):
    """Base of :class:`NStepLSTM` and :class:`NStepBiLSTM`: eight weights and biases per
    cell (``w0..w3`` on the input, ``w4..w7`` on the state; see
    :func:`~chainer.functions.n_step_lstm`), and a cell state besides ``hx``."""

    n_weights = 8

    @property
    def n_cells(self):
        return 2

    def forward(self, hx, cx, xs=None, *rest, **kwargs):
        """Runs the stack over a batch of sequences.

        Args:
            hx, cx (~chainer.Variable or None): Initial outputs and cell states
                ``(n_layers * n_dirs, B, out_size)`` (``None``: zeros).
            xs (list of ~chainer.Variable): ``B`` sequences ``(length, in_size)``.

        Returns:
            tuple: ``(hy, cy, ys)``: final outputs and cell states, in the layout
            of ``hx``, and the ``B`` output sequences.
        """
        args = (hx, cx) + (() if xs is None else (xs,)) + rest
        hs, xs = self._arguments(args, kwargs)
        (hy, cy), ys = self._call(hs, xs)
        return hy, cy, ys


class NStepLSTM(NStepLSTMBase):
    """Stacked unidirectional LSTM.

    Args: as :class:`~chainer.links.rnn.n_step_rnn.NStepRNNBase`.

    .. admonition:: Example

        >>> lstm = L.NStepLSTM(2, 3, 4, 0.0)
        >>> hy, cy, ys = lstm(None, None, [np.ones((5, 3), np.float32)])
        >>> hy.shape, cy.shape, ys[0].shape
        ((2, 1, 4), (2, 1, 4), (5, 4))
    """

    def rnn(self, *args):
        return rnn.n_step_lstm(*args)


class NStepBiLSTM(NStepLSTMBase):
    """Stacked bidirectional LSTM (outputs ``[forward, backward]``, ``2 * out_size`` wide)."""

    use_bi_direction = True

    def rnn(self, *args):
        return rnn.n_step_bilstm(*args)
