"""S-LSTM unit: an LSTM cell merging two child nodes of a binary tree."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.activation import _grad_util
from chainer.functions.rnn import _lstm_cell
from chainer.utils import type_check


def _split_gates(ops, x, n_units):
    # Same interleaved layout as lstm: x[:, 4 * k + j] is gate j (a, i, f, o) of unit k.
    r = ops.reshape(x, (x.shape[0], n_units, 4) + x.shape[2:])
    return r[:, :, 0], r[:, :, 1], r[:, :, 2], r[:, :, 3]


def _cell_inputs(ops, c_prev1, x1, x2):
    n = c_prev1.shape[1]
    a1, i1, f1, o1 = _split_gates(ops, x1, n)
    a2, i2, f2, o2 = _split_gates(ops, x2, n)
    # Each child brings its own (cell input, input gate) pair; only the output
    # gate sums the two children's pre-activations.
    return [a1, a2], [i1, i2], o1 + o2, [f1, f2]


def _slstm_grad(ops, c_prev1, c_prev2, x1, x2, gc, gh):
    zas, zis, zo, zfs = _cell_inputs(ops, c_prev1, x1, x2)
    (gA1, gA2), (gI1, gI2), gO, (gF1, gF2), (gc1, gc2) = _lstm_cell.backward(
        ops, zas, zis, zo, zfs, [c_prev1, c_prev2], gc, gh)
    # o is the sum of the two inputs' output gates: both get its gradient.
    gx1 = ops.reshape(ops.stack([gA1, gI1, gF1, gO], 2), x1.shape)
    gx2 = ops.reshape(ops.stack([gA2, gI2, gF2, gO], 2), x2.shape)
    return gc1, gc2, gx1, gx2


class SLSTM(function_node.FunctionNode):
    """S-LSTM unit: ``(c_prev1, c_prev2, x1, x2) -> (c, h)``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('c_prev1', 'c_prev2', 'x1', 'x2'))
        c1_type, c2_type, x1_type, x2_type = in_types
        type_check.expect(
            c1_type.dtype.kind == 'f',
            c2_type.dtype == c1_type.dtype,
            x1_type.dtype == c1_type.dtype,
            x2_type.dtype == c1_type.dtype,
            c1_type.ndim >= 2,
            c1_type.ndim == x1_type.ndim,
            c1_type.ndim == x2_type.ndim,
            c1_type.ndim == c2_type.ndim,
            # (each input against its cell first, as Chainer checks)
            x1_type.shape[0] == c1_type.shape[0],
            x1_type.shape[1] == 4 * c1_type.shape[1],
            x2_type.shape[0] == c2_type.shape[0],
            x2_type.shape[1] == 4 * c2_type.shape[1],
            c1_type.shape == c2_type.shape,
            x1_type.shape == x2_type.shape,
        )
        for i in range(2, type_check.eval(c1_type.ndim)):
            type_check.expect(x1_type.shape[i] == c1_type.shape[i])

    def forward(self, inputs):
        c_prev1, c_prev2, x1, x2 = inputs
        ops = _lstm_cell.ArrayOps(backend.get_array_module(x1))
        zas, zis, zo, zfs = _cell_inputs(ops, c_prev1, x1, x2)
        self.retain_inputs((0, 1, 2, 3))
        return _lstm_cell.forward(ops, zas, zis, zo, zfs, [c_prev1, c_prev2])

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        gc, gh = grad_outputs
        if chainer.config.enable_backprop:
            # Double backprop: build the gradient from differentiable functions.
            return _slstm_grad(_lstm_cell.VariableOps, *inputs, gc, gh)
        return SLSTMGrad(gc is not None, gh is not None).apply(
            [v for v in inputs + (gc, gh) if v is not None])


class SLSTMGrad(_grad_util.FirstOrderGrad):
    """First-order gradient of :class:`SLSTM` on arrays (used without double backprop)."""

    def __init__(self, has_gc=True, has_gh=True):
        self.has_gc = has_gc
        self.has_gh = has_gh

    def forward(self, inputs):
        inputs = list(inputs)
        xs = inputs[:4]
        gc = inputs.pop(4) if self.has_gc else None
        gh = inputs[4] if self.has_gh else None
        ops = _lstm_cell.ArrayOps(backend.get_array_module(*xs))
        return _slstm_grad(ops, *xs, gc, gh)


def slstm(c_prev1, c_prev2, x1, x2):
    """One S-LSTM step: the cell and output of a binary-tree node from its two children.

    S-LSTM extends the LSTM unit to binary trees: a node merges the cell
    states ``c_prev1`` and ``c_prev2`` of its two children, using the gate
    pre-activations ``x1`` and ``x2`` computed from each child. With
    :math:`a_k, i_k, f_k, o_k` the gates held by ``x_k``, it computes

    .. math::
        c &= \\sigma(i_1) \\odot \\tanh(a_1) + \\sigma(i_2) \\odot \\tanh(a_2)
             + \\sigma(f_1) \\odot c_1 + \\sigma(f_2) \\odot c_2, \\\\
        h &= \\sigma(o_1 + o_2) \\odot \\tanh(c).

    The gate layout of ``x1`` and ``x2`` is that of :func:`~chainer.functions.lstm`:
    four gates interleaved unit by unit, so ``x_k[:, 4 * u + j]`` is gate
    ``j`` (``a, i, f, o``) of unit ``u``. See Zhu et al., *Long Short-Term
    Memory Over Tree Structures* (https://arxiv.org/abs/1503.04881).

    Args:
        c_prev1 (~chainer.Variable or N-dimensional array): Cell state of the
            first child, of shape ``(B, n_units, ...)``.
        c_prev2 (~chainer.Variable or N-dimensional array): Cell state of the
            second child, same shape.
        x1 (~chainer.Variable or N-dimensional array): Gate pre-activations from
            the first child, of shape ``(B, 4 * n_units, ...)``.
        x2 (~chainer.Variable or N-dimensional array): Gate pre-activations from
            the second child, same shape as ``x1``.

    Returns:
        tuple: ``(c, h)``, the new cell state and the output, both of the
        shape of ``c_prev1``.

    .. admonition:: Example

        >>> c1 = np.ones((1, 1), np.float32)
        >>> c2 = np.ones((1, 1), np.float32)
        >>> x1 = np.zeros((1, 4), np.float32)
        >>> x2 = np.zeros((1, 4), np.float32)
        >>> c, h = F.slstm(c1, c2, x1, x2)
        >>> c.array                            # 0 * 0.5 + 1 * 0.5 + 1 * 0.5
        array([[1.]], dtype=float32)
    """
    return SLSTM().apply((c_prev1, c_prev2, x1, x2))
