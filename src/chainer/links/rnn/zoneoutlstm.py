"""LSTM with zoneout on its states: :class:`StatefulZoneoutLSTM`."""
from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer.functions.noise import zoneout
from chainer import link
from chainer.links.connection import linear
from chainer.links.rnn import _state
from chainer.links.rnn import peephole
from chainer.utils import argument


class StatefulZoneoutLSTM(_state.StateMixin, link.Chain):
    """Fully-connected LSTM whose cell state and output keep, unit by unit, their
    previous value with probability ``c_ratio`` / ``h_ratio`` in training
    (:func:`~chainer.functions.zoneout`).

    Args:
        in_size (int): Input size.
        out_size (int): Output (and state) size.
        c_ratio (float): Zoneout ratio of the cell state.
        h_ratio (float): Zoneout ratio of the output.

    Attributes:
        upward, lateral (~chainer.links.Linear): Input and output to the gates.
        c, h (~chainer.Variable): Cell state and output, ``None`` before the first step.
    """

    _STATES = ('c', 'h')
    c = None
    h = None

    def __init__(self, in_size, out_size, c_ratio=0.5, h_ratio=0.5, **kwargs):
        if kwargs:
            argument.check_unexpected_kwargs(
                kwargs, train='train argument is not supported anymore. '
                              'Use chainer.using_config')
            argument.assert_kwargs_empty(kwargs)
        super().__init__()
        self.state_size = out_size
        self.c_ratio = c_ratio
        self.h_ratio = h_ratio
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size)
            self.lateral = linear.Linear(out_size, 4 * out_size, nobias=True)

    def set_state(self, c, h):
        """Sets the cell state ``c`` and output ``h`` (Variables, moved to the link's device)."""
        self._set_states(c=c, h=h)

    def forward(self, x):
        """One step: updates ``c`` and ``h`` and returns ``h``."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        else:
            self.h = _state.zeros_state(self, x.shape[0], lstm_in.dtype)
        if self.c is None:
            self.c = _state.zeros_state(self, x.shape[0], lstm_in.dtype)
        a, i, f, o = peephole._gates(lstm_in)
        c_new = tanh.tanh(a) * sigmoid.sigmoid(i) + sigmoid.sigmoid(f) * self.c
        self.c = zoneout.zoneout(self.c, c_new, self.c_ratio)
        self.h = zoneout.zoneout(self.h, sigmoid.sigmoid(o) * tanh.tanh(c_new), self.h_ratio)
        return self.h
