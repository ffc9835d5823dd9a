"""``chainer.functions.rnn.slstm``: the same slstm as :mod:`chainer.functions.activation.slstm`.

Chainer 7 exposes the cell under both paths; the implementation lives in the
activation family.
"""
from chainer.functions.activation.slstm import SLSTM  # NOQA
from chainer.functions.activation.slstm import SLSTMGrad  # NOQA
from chainer.functions.activation.slstm import slstm  # NOQA
