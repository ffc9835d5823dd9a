"""The LSTM cell: one step of a long short-term memory recurrence."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.activation import _grad_util
from chainer.functions.rnn import _lstm_cell
from chainer.utils import type_check


def _split_gates(ops, x, n_units):
    # Chainer's layout interleaves the gates unit by unit: x[:, 4 * k + j] is
    # gate j (a, i, f, o) of unit k.
    r = ops.reshape(x, (x.shape[0], n_units, 4) + x.shape[2:])
    return r[:, :, 0], r[:, :, 1], r[:, :, 2], r[:, :, 3]


def _lstm_grad(ops, c_prev, x, gc, gh):
    # Shared by the fused array path and the differentiable Variable path.
    batch = x.shape[0]
    za, zi, zf, zo = _split_gates(ops, x, c_prev.shape[1])
    cp = c_prev[:batch] if batch < c_prev.shape[0] else c_prev
    gc_b = None if gc is None else (gc[:batch] if batch < c_prev.shape[0] else gc)
    (gA,), (gI,), gO, (gF,), (gcp,) = _lstm_cell.backward(
        ops, [za], [zi], zo, [zf], [cp], gc_b, gh)
    gx = ops.reshape(ops.stack([gA, gI, gF, gO], 2), x.shape)
    if batch < c_prev.shape[0]:
        # Rows beyond len(x) passed through unchanged.
        rest = c_prev[batch:]
        gcp = ops.concat([gcp, ops.zeros_like(rest) if gc is None else gc[batch:]])
    return gcp, gx


class LSTM(function_node.FunctionNode):
    """LSTM unit with forget gate: ``(c_prev, x) -> (c, h)``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('c', 'x'))
        c_type, x_type = in_types
        type_check.expect(
            c_type.dtype.kind == 'f',
            x_type.dtype == c_type.dtype,
            c_type.ndim >= 2,
            x_type.ndim >= 2,
            c_type.ndim == x_type.ndim,
            x_type.shape[0] <= c_type.shape[0],
            x_type.shape[1] == 4 * c_type.shape[1],
        )
        for i in range(2, type_check.eval(c_type.ndim)):
            type_check.expect(x_type.shape[i] == c_type.shape[i])

    def forward(self, inputs):
        c_prev, x = inputs
        xp = backend.get_array_module(x)
        ops = _lstm_cell.ArrayOps(xp)
        batch = len(x)
        za, zi, zf, zo = _split_gates(ops, x, c_prev.shape[1])
        c, h = _lstm_cell.forward(ops, [za], [zi], zo, [zf], [c_prev[:batch]])
        if batch < len(c_prev):
            c = xp.concatenate((c, c_prev[batch:]), axis=0)
        self.retain_inputs((0, 1))
        return c, h

    def backward(self, indexes, grad_outputs):
        c_prev, x = self.get_retained_inputs()
        gc, gh = grad_outputs
        if chainer.config.enable_backprop:
            # Double backprop: build the gradient from differentiable functions.
            return _lstm_grad(_lstm_cell.VariableOps, c_prev, x, gc, gh)
        return LSTMGrad(gc is not None, gh is not None).apply(
            [v for v in (c_prev, x, gc, gh) if v is not None])


class LSTMGrad(_grad_util.FirstOrderGrad):
    """First-order gradient of :class:`LSTM`, computed on arrays in one node.

    It is only used when no graph of the backward pass is recorded; with
    double backprop LSTM builds the same formula from differentiable
    functions instead.
    """

    def __init__(self, has_gc=True, has_gh=True):
        self.has_gc = has_gc
        self.has_gh = has_gh

    def forward(self, inputs):
        inputs = list(inputs)
        c_prev, x = inputs[:2]
        gc = inputs.pop(2) if self.has_gc else None
        gh = inputs[2] if self.has_gh else None
        ops = _lstm_cell.ArrayOps(backend.get_array_module(x))
        return _lstm_grad(ops, c_prev, x, gc, gh)


def lstm(c_prev, x):
    """One LSTM step: the next cell state and output from the gate pre-activations.

    Given the previous cell state ``c_prev`` and the input ``x``, whose second
    axis holds the pre-activations of the four gates, it computes

    .. math::
        c_t &= \\sigma(f) \\odot c_{t-1} + \\sigma(i) \\odot \\tanh(a), \\\\
        h_t &= \\sigma(o) \\odot \\tanh(c_t),

    where :math:`\\sigma` is the logistic sigmoid, :math:`a` feeds the cell
    input, and :math:`i, f, o` are the input, forget and output gates.

    **Gate layout** (as in Chainer): ``x.shape[1]`` is ``4 * n_units`` and the
    gates are *interleaved* unit by unit, i.e. ``x`` reshaped to
    ``(batch, n_units, 4, ...)`` gives ``a, i, f, o`` along its third axis:
    ``x[:, 4 * k + 0]`` is ``a`` of unit ``k``, ``x[:, 4 * k + 1]`` its ``i``,
    ``x[:, 4 * k + 2]`` its ``f`` and ``x[:, 4 * k + 3]`` its ``o``.

    Variable-length mini-batches: ``x`` may have fewer rows than ``c_prev``
    (sort sequences by decreasing length). Then only ``c[:len(x)]`` is updated,
    ``c[len(x):]`` is copied from ``c_prev``, and ``h`` has ``len(x)`` rows.

    Args:
        c_prev (~chainer.Variable or N-dimensional array): Previous cell state,
            of shape ``(B, n_units, ...)`` (zeros or the ``c`` of a previous
            call).
        x (~chainer.Variable or N-dimensional array): Gate pre-activations, of
            shape ``(b, 4 * n_units, ...)`` with ``b <= B``, same dtype.

    Returns:
        tuple: ``(c, h)``, the new cell state (``B`` rows) and the output
        (``b`` rows).

    .. admonition:: Example

        >>> c_prev = np.zeros((1, 2), np.float32)
        >>> x = np.zeros((1, 8), np.float32)   # a, i, f, o of unit 0, then of unit 1
        >>> x[0, 0] = x[0, 4] = 100.           # a = tanh(100) = 1 for both units
        >>> c, h = F.lstm(c_prev, x)
        >>> c.array                            # = 1 * sigmoid(0)
        array([[0.5, 0.5]], dtype=float32)
    """
    return LSTM().apply((c_prev, x))
