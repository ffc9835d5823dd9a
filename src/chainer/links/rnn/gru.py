"""Gated recurrent unit links: :class:`StatelessGRU`, :class:`StatefulGRU` and :class:`GRU`."""
from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer.functions.math import linear_interpolate
from chainer import link
from chainer.links.connection import linear
from chainer.links.rnn import _state


class GRUBase(link.Chain):
    """The six linear maps of a GRU: ``W*`` read the input, ``U*`` the state."""

    def __init__(self, in_size, out_size, init=None, inner_init=None, bias_init=None):
        super().__init__()
        with self.init_scope():
            # Gate by gate, input map then state map: the order Chainer draws their weights in.
            for gate in ('_r', '_z', ''):
                setattr(self, 'W' + gate, linear.Linear(in_size, out_size, initialW=init,
                                                        initial_bias=bias_init))
                setattr(self, 'U' + gate, linear.Linear(out_size, out_size,
                                                        initialW=inner_init,
                                                        initial_bias=bias_init))


class StatelessGRU(GRUBase):
    """GRU layer that takes its state as an argument.

    .. math::
        r &= \\sigma(W_r x + U_r h), \\quad z = \\sigma(W_z x + U_z h), \\\\
        \\bar h &= \\tanh(W x + U (r \\odot h)), \\quad
        h' = z \\odot \\bar h + (1 - z) \\odot h.

    Args:
        in_size (int or None): Input size (``None``: lazy).
        out_size (int): State size.
        init: Initializer of the ``W*`` weights.
        inner_init: Initializer of the ``U*`` weights.
        bias_init: Initializer of every bias (default 0).
    """

    def forward(self, h, x):
        """One step: returns the new state from the state ``h`` and input ``x``."""
        r = sigmoid.sigmoid(self.W_r(x) + self.U_r(h))
        z = sigmoid.sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = tanh.tanh(self.W(x) + self.U(r * h))
        return linear_interpolate.linear_interpolate(z, h_bar, h)


class StatefulGRU(_state.StateMixin, GRUBase):
    """GRU layer that keeps its state ``h`` (the formula of :class:`StatelessGRU`;
    the first step, without a state, gives :math:`z \\odot \\bar h`).

    Args: as :class:`StatelessGRU`, with ``bias_init`` defaulting to 0.

    Attributes:
        h (~chainer.Variable): The state, ``None`` before the first step.
    """

    h = None

    def __init__(self, in_size, out_size, init=None, inner_init=None, bias_init=0):
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size

    def set_state(self, h):
        """Sets the state ``h`` (a Variable, moved to the link's device)."""
        self._set_states(h=h)

    def forward(self, x):
        """One step: updates and returns the state."""
        z = self.W_z(x)
        h_bar = self.W(x)
        h = self.h
        if h is not None:
            r = sigmoid.sigmoid(self.W_r(x) + self.U_r(h))
            z += self.U_z(h)
            h_bar += self.U(r * h)
        z = sigmoid.sigmoid(z)
        h_bar = tanh.tanh(h_bar)
        if h is None:
            self.h = z * h_bar
        else:
            self.h = linear_interpolate.linear_interpolate(z, h_bar, h)
        return self.h


class GRU(StatefulGRU):
    """Stateful GRU (an alias of :class:`StatefulGRU` kept from Chainer v1).

    It takes exactly one argument ``x``; the stateless form ``gru(h, x)`` of
    Chainer v1 is :class:`StatelessGRU`.
    """

    def forward(self, *args):
        """One step on the input ``x`` (the only argument)."""
        if len(args) != 1:
            hint = ''
            if len(args) == 2:
                hint = (' (chainer.links.GRU is stateful since Chainer v2; for the stateless '
                        'form gru(h, x) use chainer.links.StatelessGRU)')
            raise ValueError(f'GRU takes one argument x, got {len(args)}{hint}')
        return super().forward(args[0])
