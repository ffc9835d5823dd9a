"""The cell arithmetic shared by lstm, slstm and tree_lstm.

All three compute, from cell-input/input-gate pairs ``(za_j, zi_j)``, the
output gate ``zo`` and forget-gate inputs ``zf_k`` paired with previous cells
``c_k``::

    c = sum_j tanh(za_j) sigmoid(zi_j) + sum_k sigmoid(zf_k) c_k
    h = sigmoid(zo) tanh(c)

and differ only in how the gate inputs are laid out in ``x`` (lstm and
tree_lstm have one ``(za, zi)`` pair, slstm one per child). The formulas
below are written once against a small ``ops`` namespace, so the same code
runs on raw arrays (the fast forward and first-order backward) and on
Variables (for double backprop, where the gradient must itself be
differentiable).
"""
import chainer
from chainer import backend


class ArrayOps:
    """Array implementation of the few primitives the cell needs."""

    def __init__(self, xp):
        self.xp = xp

    def tanh(self, x):
        return self.xp.tanh(x)

    def sigmoid(self, x):
        # Computed through tanh so that large |x| cannot overflow.
        half = x.dtype.type(0.5)
        y = self.xp.tanh(x * half)
        y *= half
        y += half
        return y

    def reshape(self, x, shape):
        return x.reshape(shape)

    def stack(self, xs, axis):
        return self.xp.stack(xs, axis=axis)

    def concat(self, xs):
        return self.xp.concatenate(xs, axis=0)

    def zeros_like(self, x):
        return self.xp.zeros_like(x)


class VariableOps:
    """Variable implementation of the same primitives (differentiable)."""

    @staticmethod
    def tanh(x):
        return chainer.functions.tanh(x)

    @staticmethod
    def sigmoid(x):
        return chainer.functions.sigmoid(x)

    @staticmethod
    def reshape(x, shape):
        return chainer.functions.reshape(x, shape)

    @staticmethod
    def stack(xs, axis):
        return chainer.functions.stack(xs, axis=axis)

    @staticmethod
    def concat(xs):
        return chainer.functions.concat(xs, axis=0)

    @staticmethod
    def zeros_like(x):
        return chainer.Variable(backend.get_array_module(x).zeros(x.shape, x.dtype))


def activate(ops, zas, zis, zo, zfs):
    """Applies the gate nonlinearities."""
    return ([ops.tanh(za) for za in zas], [ops.sigmoid(zi) for zi in zis], ops.sigmoid(zo),
            [ops.sigmoid(zf) for zf in zfs])


def _cell(as_, is_, fs, cs):
    c = as_[0] * is_[0]
    for a, i in zip(as_[1:], is_[1:]):
        c = c + a * i
    for f, c_k in zip(fs, cs):
        c = c + f * c_k
    return c


def forward(ops, zas, zis, zo, zfs, cs):
    """Returns the new cell state ``c`` and output ``h``."""
    as_, is_, o, fs = activate(ops, zas, zis, zo, zfs)
    c = _cell(as_, is_, fs, cs)
    return c, o * ops.tanh(c)


def backward(ops, zas, zis, zo, zfs, cs, gc, gh):
    """Gradients of the cell with respect to ``za_j, zi_j, zo, zf_k`` and ``c_k``.

    ``gc`` or ``gh`` may be ``None`` (no gradient flows into that output).

    Returns:
        tuple: ``(gAs, gIs, gO, gFs, gcs)``.
    """
    as_, is_, o, fs = activate(ops, zas, zis, zo, zfs)
    c = _cell(as_, is_, fs, cs)
    t = ops.tanh(c)
    if gh is None:
        gct = gc
        gO = ops.zeros_like(zo)
    else:
        # h = o tanh(c): gradient to c through tanh, and to zo through sigmoid.
        gct = gh * o * (1 - t * t)
        if gc is not None:
            gct = gct + gc
        gO = gh * t * (o - o * o)
    gAs = [gct * i * (1 - a * a) for a, i in zip(as_, is_)]
    gIs = [gct * a * (i - i * i) for a, i in zip(as_, is_)]
    gFs = [gct * c_k * (f - f * f) for f, c_k in zip(fs, cs)]
    gcs = [gct * f for f in fs]
    return gAs, gIs, gO, gFs, gcs
