"""Recurrent links (``chainer.links.rnn``): LSTM, GRU, MGU, tree LSTMs, n-step RNNs."""
