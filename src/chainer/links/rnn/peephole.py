"""LSTM with peephole connections: :class:`StatefulPeepholeLSTM`."""
from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer.functions.array import reshape
from chainer.functions.array import split_axis
from chainer import link
from chainer.links.connection import linear
from chainer.links.rnn import _state


def _gates(lstm_in):
    # The four gates are interleaved per unit, as in chainer.functions.lstm.
    n = lstm_in.shape[1] // 4
    gates = split_axis.split_axis(reshape.reshape(lstm_in, (len(lstm_in), n, 4)), 4, 2)
    return [reshape.reshape(g, (len(lstm_in), n)) for g in gates]


class StatefulPeepholeLSTM(_state.StateMixin, link.Chain):
    """Fully-connected LSTM whose input, forget and output gates also see the cell.

    .. math::
        i = \\sigma(z_i + P_i c), \\; f = \\sigma(z_f + P_f c), \\;
        c' = \\tanh(z_a) \\odot i + f \\odot c, \\;
        h' = \\sigma(z_o + P_o c') \\odot \\tanh c'

    where :math:`z = \\mathrm{upward}(x) + \\mathrm{lateral}(h)`.

    Args:
        in_size (int or None): Input size (``None``: lazy).
        out_size (int): Output (and state) size.

    Attributes:
        upward, lateral (~chainer.links.Linear): Input and output to the gates.
        peep_i, peep_f, peep_o (~chainer.links.Linear): Cell to gates, no bias.
        c, h (~chainer.Variable): Cell state and output, ``None`` before the first step.
    """

    _STATES = ('c', 'h')
    c = None
    h = None

    def __init__(self, in_size, out_size):
        super().__init__()
        self.state_size = out_size
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size)
            self.lateral = linear.Linear(out_size, 4 * out_size, nobias=True)
            self.peep_i = linear.Linear(out_size, out_size, nobias=True)
            self.peep_f = linear.Linear(out_size, out_size, nobias=True)
            self.peep_o = linear.Linear(out_size, out_size, nobias=True)

    def forward(self, x):
        """One step: updates ``c`` and ``h`` and returns ``h``."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = _state.zeros_state(self, x.shape[0], lstm_in.dtype)
        a, i, f, o = _gates(lstm_in)
        i = sigmoid.sigmoid(i + self.peep_i(self.c))
        f = sigmoid.sigmoid(f + self.peep_f(self.c))
        self.c = tanh.tanh(a) * i + f * self.c
        o = sigmoid.sigmoid(o + self.peep_o(self.c))
        self.h = o * tanh.tanh(self.c)
        return self.h
