"""TreeLSTM cell (N-ary and child-sum): one step over a tree node and its children."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _old_style
from chainer.functions.activation import _grad_util
from chainer.functions.rnn import _lstm_cell
from chainer.utils import type_check


def _split_gates(ops, x, n_children):
    # Unlike lstm, the gates are contiguous blocks along axis 1, in the order
    # a, i, o, f_1, ..., f_N.
    n_units = x.shape[1] // (3 + n_children)
    r = ops.reshape(x, (x.shape[0], 3 + n_children, n_units) + x.shape[2:])
    return r[:, 0], r[:, 1], r[:, 2], [r[:, 3 + k] for k in range(n_children)]


def _tree_lstm_grad(ops, cs, x, gc, gh):
    za, zi, zo, zfs = _split_gates(ops, x, len(cs))
    (gA,), (gI,), gO, gFs, gcs = _lstm_cell.backward(ops, [za], [zi], zo, zfs, cs, gc, gh)
    gx = ops.reshape(ops.stack([gA, gI, gO] + gFs, 1), x.shape)
    return tuple(gcs) + (gx,)


class TreeLSTM(_old_style.FunctionCall, function_node.FunctionNode):
    """TreeLSTM unit: ``(c_1, ..., c_N, x) -> (c, h)``."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() >= 2)
        n = len(in_types) - 1
        # (unnamed: Chainer's messages say in_types[i] for this function)
        x_type = in_types[-1]
        c_types = in_types[:-1]
        c_type = c_types[0]
        # (in Chainer's order: the cells' kinds, x's dtype, the numbers of axes)
        for c in c_types:
            type_check.expect(c.dtype.kind == 'f')
        type_check.expect(x_type.dtype == c_type.dtype, x_type.ndim >= 2)
        for c in c_types:
            type_check.expect(c.ndim == x_type.ndim)
        for c in c_types:
            type_check.expect(x_type.shape[1] == (3 + n) * c.shape[1])
        for c in c_types:
            type_check.expect(
                c.dtype == x_type.dtype,
                c.shape[0] == x_type.shape[0],
                c.shape[1] == c_type.shape[1],
            )
            for i in range(2, type_check.eval(x_type.ndim)):
                type_check.expect(c.shape[i] == x_type.shape[i])

    def forward(self, inputs):
        cs, x = inputs[:-1], inputs[-1]
        ops = _lstm_cell.ArrayOps(backend.get_array_module(x))
        za, zi, zo, zfs = _split_gates(ops, x, len(cs))
        self.retain_inputs(tuple(range(len(inputs))))
        return _lstm_cell.forward(ops, [za], [zi], zo, zfs, cs)

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        gc, gh = grad_outputs
        if chainer.config.enable_backprop:
            # Double backprop: build the gradient from differentiable functions.
            return _tree_lstm_grad(_lstm_cell.VariableOps, inputs[:-1], inputs[-1], gc, gh)
        return TreeLSTMGrad(len(inputs) - 1, gc is not None, gh is not None).apply(
            [v for v in inputs + (gc, gh) if v is not None])


class TreeLSTMGrad(_grad_util.FirstOrderGrad):
    """First-order gradient of :class:`TreeLSTM` on arrays (used without double backprop)."""

    def __init__(self, n_children, has_gc=True, has_gh=True):
        self.n_children = n_children
        self.has_gc = has_gc
        self.has_gh = has_gh

    def forward(self, inputs):
        n = self.n_children
        cs, x = inputs[:n], inputs[n]
        rest = list(inputs[n + 1:])
        gc = rest.pop(0) if self.has_gc else None
        gh = rest[0] if self.has_gh else None
        ops = _lstm_cell.ArrayOps(backend.get_array_module(x))
        return _tree_lstm_grad(ops, cs, x, gc, gh)


def tree_lstm(*inputs):
    """One TreeLSTM step: the cell and output of a tree node from its children.

    Implements the cell of both the N-ary and the child-sum TreeLSTM (Tai et
    al., *Improved Semantic Representations From Tree-Structured Long
    Short-Term Memory Networks*, https://arxiv.org/abs/1503.00075). Given the
    cell states :math:`c_1, \\dots, c_N` of the children and the incoming
    signal ``x``, split into :math:`3 + N` gate inputs
    :math:`a, i, o, f_1, \\dots, f_N`, it computes

    .. math::
        c &= \\sigma(i) \\odot \\tanh(a) + \\sum_{n=1}^{N} \\sigma(f_n) \\odot c_n, \\\\
        h &= \\sigma(o) \\odot \\tanh(c).

    **Gate layout** (as in Chainer): the gates are *contiguous blocks* along
    the second axis of ``x``, in the order ``a, i, o, f_1, ..., f_N``, each
    ``n_units`` wide (``x[:, 0:n_units]`` is ``a``, the next block ``i``, ...).
    This differs from :func:`~chainer.functions.lstm`, whose gates are
    interleaved.

    Args:
        inputs: The children's cell states ``c_1, ..., c_N`` (each of shape
            ``(B, n_units, ...)``) followed by ``x`` of shape
            ``(B, (3 + N) * n_units, ...)``, all of one float dtype.

    Returns:
        tuple: ``(c, h)``, the new cell state and the output, both of shape
        ``(B, n_units, ...)``.

    .. admonition:: Example

        >>> c1 = np.ones((1, 2), np.float32)
        >>> c2 = np.zeros((1, 2), np.float32)
        >>> x = np.zeros((1, 10), np.float32)     # blocks a, i, o, f1, f2
        >>> c, h = F.tree_lstm(c1, c2, x)
        >>> c.array                               # tanh(0) * 0.5 + 1 * 0.5 + 0 * 0.5
        array([[0.5, 0.5]], dtype=float32)
    """
    return TreeLSTM().apply(inputs)
