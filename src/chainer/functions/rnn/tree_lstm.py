"""``chainer.functions.rnn.tree_lstm``: the same tree_lstm as :mod:`chainer.functions.activation.tree_lstm`.

Chainer 7 exposes the cell under both paths; the implementation lives in the
activation family.
"""
from chainer.functions.activation.tree_lstm import TreeLSTM  # NOQA
from chainer.functions.activation.tree_lstm import TreeLSTMGrad  # NOQA
from chainer.functions.activation.tree_lstm import tree_lstm  # NOQA
