"""Sigmoid cross entropy of logits and binary labels."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.loss import _common
from chainer.utils import type_check


def _as_float32(x):
    # Half precision loses too much in log1p(exp(.)) and sigmoid; compute in float32.
    return x.astype(numpy.float32) if x.dtype == numpy.float16 else x


def _sigmoid(x, xp):
    # tanh form: no overflow for logits of any magnitude.
    return xp.tanh(x * 0.5) * 0.5 + 0.5


class SigmoidCrossEntropy(function_node.FunctionNode):
    """Elementwise sigmoid cross entropy; label -1 is ignored."""

    ignore_label = -1

    def __init__(self, normalize=True, reduce='mean'):
        _common.check_reduce('sigmoid_cross_entropy', reduce, ('mean', 'no'))
        self.normalize = normalize
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x, t = in_types
        type_check.expect(x.dtype.kind == 'f', t.dtype.kind == 'i', x.shape == t.shape)

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        _common.check_labels('sigmoid_cross_entropy', t, 2, self.ignore_label)
        self.retain_inputs((0,))
        xf = _as_float32(x)
        self.t = t
        self.mask = t != self.ignore_label
        # -(t log p + (1 - t) log(1 - p)) = log(1 + exp(-|x|)) + max(x, 0) - t x
        loss = xp.log1p(xp.exp(-xp.abs(xf))) + xp.maximum(xf, 0) - t * xf
        loss *= self.mask
        if self.reduce == 'mean':
            self.coeff = self._coeff(xp, x)
            loss = loss.sum() * self.coeff
        return xp.asarray(loss, x.dtype),

    def _coeff(self, xp, x):
        if self.normalize:
            count = int(self.mask.sum())
        else:
            count = len(x) if x.ndim else 1
        return 1. / count if count else 0.

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(SigmoidCrossEntropyGrad(self).apply((x, gy))[0])
        if 1 in indexes:
            ret.append(None)
        return tuple(ret)


class SigmoidCrossEntropyGrad(function_node.FunctionNode):
    """Gradient of :class:`SigmoidCrossEntropy` with respect to ``x``, given ``gy``."""

    def __init__(self, fwd):
        self.reduce = fwd.reduce
        self.mask = fwd.mask
        self.t = fwd.t
        self.coeff = getattr(fwd, 'coeff', 1.)

    def _scale(self, gy, dtype):
        # mask * coeff * gy, broadcast to x.
        m = self.mask.astype(dtype) * dtype.type(self.coeff)
        return m * gy

    def forward(self, inputs):
        x, gy = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        xf = _as_float32(x)
        g = (_sigmoid(xf, xp) - self.t) * self._scale(gy, xf.dtype)
        return xp.asarray(g, x.dtype),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        xp = backend.get_array_module(x)
        s = F.sigmoid(x)
        scale = (self.mask * self.coeff).astype(x.dtype)
        ret = []
        if 0 in indexes:
            gyb = gy if self.reduce == 'no' else F.broadcast_to(gy, x.shape)
            ret.append(ggx * s * (1 - s) * gyb * scale)
        if 1 in indexes:
            gg = ggx * (s - xp.asarray(self.t, x.dtype)) * scale
            ret.append(gg if self.reduce == 'no' else F.sum(gg))
        return tuple(ret)


def sigmoid_cross_entropy(x, t, normalize=True, reduce='mean'):
    """Sigmoid cross entropy of logits and binary labels.

    .. math:: l = -\\{t \\log \\sigma(x) + (1 - t) \\log(1 - \\sigma(x))\\}

    computed as :math:`\\log(1 + e^{-|x|}) + \\max(x, 0) - t x`, finite for
    logits of any magnitude. Entries whose label is -1 are ignored.

    Args:
        x (~chainer.Variable or N-dimensional array): Logits (float).
        t (~chainer.Variable or N-dimensional array): Labels 0, 1 or -1
            (ignored), of the shape of ``x`` (int).
        normalize (bool): With ``reduce='mean'``, divide the sum by the
            number of labels not ignored (``True``) or by the batch size
            ``x.shape[0]`` (``False``).
        reduce (str): ``'mean'`` or ``'no'`` (elementwise, 0 where ignored).

    Returns:
        ~chainer.Variable: The loss, of the dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[0., 1e4, -1e4]], 'f')
        >>> F.sigmoid_cross_entropy(x, np.array([[1, 1, 0]], 'i'), reduce='no').array
        array([[0.6931472, 0.       , 0.       ]], dtype=float32)
    """
    return SigmoidCrossEntropy(normalize, reduce).apply((x, t))[0]
