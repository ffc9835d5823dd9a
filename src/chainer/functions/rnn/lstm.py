"""``chainer.functions.rnn.lstm``: the same lstm as :mod:`chainer.functions.activation.lstm`.

Chainer 7 exposes the cell under both paths; the implementation lives in the
activation family.
"""
from chainer.functions.activation.lstm import LSTM  # NOQA
from chainer.functions.activation.lstm import LSTMGrad  # NOQA
from chainer.functions.activation.lstm import lstm  # NOQA
