"""Tree-structured LSTM links: :class:`ChildSumTreeLSTM` and :class:`NaryTreeLSTM`."""
import chainer
from chainer.functions import _checks
from chainer.functions.activation import sigmoid
from chainer.functions.activation import tanh
from chainer.functions.array import concat
from chainer.functions.array import split_axis
from chainer.functions.rnn import tree_lstm
from chainer import link
from chainer.links.connection import linear
from chainer.links.rnn import _state


def _split_inputs(name, cshsx, n=None):
    if len(cshsx) % 2 != 1 or (n is not None and len(cshsx) != 2 * n + 1):
        want = 'an odd number' if n is None else str(2 * n + 1)
        # also an AssertionError, which Chainer 7.8.1 raises here
        raise _checks.AssertionValueError(
            f'{name} requires {want} of arguments (c_1..c_n, h_1..h_n, x), got {len(cshsx)}')
    k = len(cshsx) // 2
    return list(cshsx[:k]), list(cshsx[k:-1]), cshsx[-1]


def _fill_missing(link, name, cs, hs, x):
    """Replaces ``None`` children by zeros and a ``None`` input by zeros."""
    given = [v for v in cs + hs if v is not None]
    if x is None:
        if not given:
            raise ValueError(f'{name} requires at least one input that is not None '
                             f'(all of cs, hs and x are None)')
        batch, dtype = given[0].shape[0], given[0].dtype
        with chainer.using_device(link.device):
            x = link.xp.zeros((batch, link.in_size), dtype=dtype)
    else:
        batch, dtype = x.shape[0], x.dtype

    def fill(vs):
        return [_state.zeros_state(link, batch, dtype) if v is None else v for v in vs]
    return fill(cs), fill(hs), x


class ChildSumTreeLSTM(link.Chain):
    """Child-sum tree LSTM: a node with any number of children (Tai et al., 2015).

    The gates ``a, i, o`` see the input and the sum of the children's outputs;
    each child ``k`` has its own forget gate on its own output ``h_k``.

    Args:
        in_size (int or None): Input size (``None``: lazy).
        out_size (int): Output (and state) size.

    Attributes:
        W_x (~chainer.links.Linear): Input to the gates ``a, i, o, f`` (blocks of
            ``out_size`` rows).
        W_h_aio (~chainer.links.Linear): Summed child output to ``a, i, o``, no bias.
        W_h_f (~chainer.links.Linear): Child output to its forget gate, no bias.
    """

    def __init__(self, in_size, out_size):
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size
        with self.init_scope():
            self.W_x = linear.Linear(in_size, 4 * out_size)
            self.W_h_aio = linear.Linear(out_size, 3 * out_size, nobias=True)
            self.W_h_f = linear.Linear(out_size, out_size, nobias=True)

    def forward(self, *cshsx):
        """Computes a node from its children's states and its input.

        Args:
            cshsx: ``c_1, ..., c_n, h_1, ..., h_n, x`` (``n >= 0``): the
                children's cell states and outputs ``(B, out_size)`` and the input
                ``(B, in_size)``; any may be ``None`` (zeros).

        Returns:
            tuple: The node's cell state and output ``(c, h)``.
        """
        name = type(self).__name__
        cs, hs, x = _split_inputs(name, cshsx)
        cs, hs, x = _fill_missing(self, name, cs, hs, x)
        n = self.state_size
        aio_in, f_x = split_axis.split_axis(self.W_x(x), [3 * n], axis=1)
        if not hs:
            a, i, o = split_axis.split_axis(aio_in, 3, axis=1)
            c = sigmoid.sigmoid(i) * tanh.tanh(a)
            return c, sigmoid.sigmoid(o) * tanh.tanh(c)
        h_sum = hs[0]
        for h in hs[1:]:
            h_sum = h_sum + h
        aio_in = aio_in + self.W_h_aio(h_sum)
        # One product for every child's forget gate, then one block per child.
        f_h = split_axis.split_axis(self.W_h_f(concat.concat(hs, axis=0)), len(hs), axis=0)
        fs_in = [f_x + f for f in f_h]
        return tree_lstm.tree_lstm(*(cs + [concat.concat([aio_in] + fs_in, axis=1)]))


class NaryTreeLSTM(link.Chain):
    """N-ary tree LSTM: a node with exactly ``n_ary`` ordered children (Tai et al., 2015).

    Every gate sees the input and each child's output through the child's own
    weights ``W_h1 .. W_h{n_ary}``.

    Args:
        in_size (int or None): Input size (``None``: lazy).
        out_size (int): Output (and state) size.
        n_ary (int): Number of children.

    Attributes:
        W_x (~chainer.links.Linear): Input to the gates ``a, i, o, f_1..f_n``.
        W_h1, ..., W_h{n_ary} (~chainer.links.Linear): Child outputs to the gates, no bias.
    """

    def __init__(self, in_size, out_size, n_ary=2):
        if n_ary < 1:
            raise ValueError(f'NaryTreeLSTM requires n_ary >= 1, got {n_ary}')
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size
        self.n_ary = n_ary
        with self.init_scope():
            self.W_x = linear.Linear(in_size, (3 + n_ary) * out_size)
            for k in range(1, n_ary + 1):
                setattr(self, f'W_h{k}',
                        linear.Linear(out_size, (3 + n_ary) * out_size, nobias=True))

    def forward(self, *cshsx):
        """Computes a node from its children's states and its input.

        Args:
            cshsx: ``c_1, ..., c_n, h_1, ..., h_n, x`` with ``n = n_ary``; any may be
                ``None`` (zeros, for a missing child or input).

        Returns:
            tuple: The node's cell state and output ``(c, h)``.
        """
        name = type(self).__name__
        cs, hs, x = _split_inputs(name, cshsx, self.n_ary)
        cs, _, x = _fill_missing(self, name, cs, hs, x)
        lstm_in = self.W_x(x)
        for k, h in enumerate(hs, start=1):
            if h is not None:
                lstm_in = lstm_in + getattr(self, f'W_h{k}')(h)
        return tree_lstm.tree_lstm(*(cs + [lstm_in]))
