"""Minimal gated unit links: :class:`StatelessMGU` and :class:`StatefulMGU`."""
from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer.functions.array import concat
from chainer.functions.math import linear_interpolate
from chainer import link
from chainer.links.connection import linear
from chainer.links.rnn import _state


class MGUBase(link.Chain):
    """The two linear maps of an MGU, each on ``[h, x]``."""

    def __init__(self, n_inputs, n_units):
        super().__init__()
        with self.init_scope():
            self.W_f = linear.Linear(n_inputs + n_units, n_units)
            self.W_h = linear.Linear(n_inputs + n_units, n_units)

    def _call_mgu(self, h, x):
        f = sigmoid.sigmoid(self.W_f(concat.concat([h, x])))
        h_bar = tanh.tanh(self.W_h(concat.concat([f * h, x])))
        return linear_interpolate.linear_interpolate(f, h_bar, h)


class StatelessMGU(MGUBase):
    """Minimal gated unit that takes its state as an argument.

    .. math::
        f = \\sigma(W_f [h, x]), \\quad \\bar h = \\tanh(W_h [f \\odot h, x]), \\quad
        h' = f \\odot \\bar h + (1 - f) \\odot h.

    Args:
        n_inputs (int): Input size.
        n_units (int): State size.
    """

    def forward(self, h, x):
        """One step: returns the new state."""
        return self._call_mgu(h, x)


class StatefulMGU(_state.StateMixin, MGUBase):
    """Minimal gated unit that keeps its state ``h`` (zeros before the first step).

    Args:
        in_size (int): Input size.
        out_size (int): State size.
    """

    h = None

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        self._state_size = out_size

    @property
    def state_size(self):
        return self._state_size

    def set_state(self, h):
        """Sets the state ``h`` (a Variable, moved to the link's device)."""
        self._set_states(h=h)

    def forward(self, x):
        """One step: updates and returns the state."""
        h = self.h
        if h is None:
            h = _state.zeros_state(self, x.shape[0], x.dtype)
        self.h = self._call_mgu(h, x)
        return self.h
