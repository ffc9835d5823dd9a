"""LSTM links: the stateful :class:`LSTM` and :class:`StatelessLSTM`."""
import chainer
from chainer.functions.array import concat
from chainer.functions.array import split_axis
from chainer.functions.rnn import lstm
from chainer import initializers
from chainer import link
from chainer.links.connection import _link_util
from chainer.links.connection import linear
from chainer.links.rnn import _state


class LSTMBase(link.Chain):
    """The parameters shared by :class:`LSTM` and :class:`StatelessLSTM`.

    ``upward`` maps the input and ``lateral`` the previous output to the four
    gates, stored interleaved per unit (``a, i, f, o`` for unit 0, then unit 1...)
    as :func:`~chainer.functions.lstm` reads them.
    """

    def __init__(self, in_size, out_size=None, lateral_init=None, upward_init=None,
                 bias_init=None, forget_bias_init=None):
        if out_size is None:
            out_size, in_size = in_size, None
        super().__init__()
        self.state_size = out_size
        self.lateral_init = lateral_init
        self.upward_init = upward_init
        self.bias_init = 0 if bias_init is None else bias_init
        self.forget_bias_init = 1 if forget_bias_init is None else forget_bias_init
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size, initialW=0)
            self.lateral = linear.Linear(out_size, 4 * out_size, initialW=0, nobias=True)
        if in_size is not None:
            self._initialize_params()

    def _initialize_params(self):
        n = self.state_size
        # Each block of n rows is initialized on its own, as Chainer does (fan-in per block).
        for i in range(0, 4 * n, n):
            initializers._get_initializer(self.lateral_init)(self.lateral.W.array[i:i + n])
            initializers._get_initializer(self.upward_init)(self.upward.W.array[i:i + n])
        gates = self.upward.b.array.reshape(n, 4)
        for k in (0, 1, 3):
            initializers._get_initializer(self.bias_init)(gates[:, k])
        initializers._get_initializer(self.forget_bias_init)(gates[:, 2])

    def _lazy_init(self, x):
        in_size = 1
        for d in x.shape[1:]:
            in_size *= d
        W = self.upward.W
        if W.array is None:
            with chainer.using_device(self.device):
                self.upward._initialize_params(in_size)
                self._initialize_params()
        else:
            _link_util.check_size(self, in_size, W.shape[1],
                                  'the input size (x.shape[1:] flattened)')


class StatelessLSTM(LSTMBase):
    """LSTM layer that takes its states as arguments.

    Args:
        in_size (int or None): Input size (``None``: lazy). ``StatelessLSTM(n)``
            means ``StatelessLSTM(None, n)``.
        out_size (int): Output (and state) size.
        lateral_init: Initializer of ``lateral.W`` (default LeCun normal).
        upward_init: Initializer of ``upward.W`` (default LeCun normal).
        bias_init: Initializer of the biases of the ``a, i, o`` gates (default 0).
        forget_bias_init: Initializer of the forget gate's bias (default 1).

    Attributes:
        upward (~chainer.links.Linear): Input to gates, ``(4 * out_size, in_size)``.
        lateral (~chainer.links.Linear): Output to gates, no bias.
    """

    def forward(self, c, h, x):
        """One step.

        Args:
            c: Previous cell state ``(B, out_size)`` or ``None`` (zeros).
            h: Previous output ``(B, out_size)`` or ``None`` (no lateral input).
            x: Input ``(B, in_size)``.

        Returns:
            tuple: The new cell state and output ``(c, h)``.
        """
        self._lazy_init(x)
        lstm_in = self.upward(x)
        if h is not None:
            lstm_in += self.lateral(h)
        if c is None:
            c = _state.zeros_state(self, x.shape[0], lstm_in.dtype)
        return lstm.lstm(c, lstm_in)


class LSTM(_state.StateMixin, LSTMBase):
    """Fully-connected LSTM layer that keeps its cell state and output.

    The batch may shrink from one step to the next (for sequences sorted by
    decreasing length): only the first rows of the states are advanced.

    Args: as :class:`StatelessLSTM`.

    Attributes:
        upward, lateral: as in :class:`StatelessLSTM`.
        c (~chainer.Variable): Cell state, ``None`` before the first step.
        h (~chainer.Variable): Last output, ``None`` before the first step.

    .. admonition:: Example

        >>> lstm = L.LSTM(3, 2)
        >>> lstm(np.zeros((4, 3), np.float32)).shape
        (4, 2)
    """

    _STATES = ('c', 'h')
    c = None
    h = None

    def set_state(self, c, h):
        """Sets the cell state ``c`` and output ``h`` (Variables, moved to the link's device)."""
        self._set_states(c=c, h=h)

    def forward(self, x):
        """One step: updates ``c`` and ``h`` and returns the new output ``h``."""
        self._lazy_init(x)
        batch = x.shape[0]
        lstm_in = self.upward(x)
        h_rest = None
        if self.h is not None:
            h_size = self.h.shape[0]
            if h_size < batch:
                raise TypeError(f'LSTM requires the batch size of x to be at most that of the '
                                f'previous state h, got {batch} > {h_size}')
            if batch == 0:
                h_rest = self.h
            elif h_size > batch:
                h_update, h_rest = split_axis.split_axis(self.h, [batch], axis=0)
                lstm_in += self.lateral(h_update)
            else:
                lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = _state.zeros_state(self, batch, lstm_in.dtype)
        self.c, y = lstm.lstm(self.c, lstm_in)
        if h_rest is None:
            self.h = y
        elif batch == 0:
            self.h = h_rest
        else:
            self.h = concat.concat([y, h_rest], axis=0)
        return y
