"""Triplet loss of anchor, positive and negative embeddings."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.loss import _common
from chainer.utils import type_check


class Triplet(function_node.FunctionNode):
    """``max(|a - p|^2 - |a - n|^2 + margin, 0)`` per sample."""

    def __init__(self, margin, reduce='mean'):
        _common.check_positive('triplet', 'margin', margin)
        _common.check_reduce('triplet', reduce, ('mean', 'no'))
        self.margin = margin
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('anchor', 'positive', 'negative'))
        a, p, n = in_types
        type_check.expect(
            a.dtype.kind == 'f', a.dtype == p.dtype, a.dtype == n.dtype,
            a.shape == p.shape, a.shape == n.shape, a.shape[0] > 0)

    def forward(self, inputs):
        a, p, n = inputs
        xp = backend.get_array_module(a)
        self.retain_inputs((0, 1, 2))
        axes = tuple(range(1, a.ndim))
        dp = a - p
        dn = a - n
        loss = xp.maximum((dp * dp).sum(axis=axes) - (dn * dn).sum(axis=axes) + self.margin, 0)
        self.active = loss > 0
        if self.reduce == 'mean':
            loss = loss.mean()
        return xp.asarray(loss, a.dtype),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        a, p, n = self.get_retained_inputs()
        gy, = grad_outputs
        # NOTE: the hinge is piecewise linear in the two squared distances;
        # the active mask is a constant of the gradient.
        coef = self.active.astype(a.dtype) * 2
        if self.reduce == 'mean':
            coef /= len(coef)
            coef = F.broadcast_to(gy, coef.shape) * coef
        else:
            coef = gy * coef
        coef = F.broadcast_to(F.reshape(coef, coef.shape + (1,) * (a.ndim - 1)), a.shape)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(coef * (n - p))
            elif i == 1:
                ret.append(coef * (p - a))
            else:
                ret.append(coef * (a - n))
        return tuple(ret)


def triplet(anchor, positive, negative, margin=0.2, reduce='mean'):
    """Triplet loss.

    .. math::
        L = \\max(\\|a - p\\|^2 - \\|a - n\\|^2 + m, 0)

    per sample, the squared distances summed over all axes but the first.

    Args:
        anchor (~chainer.Variable or N-dimensional array): Anchors, of shape
            ``(N, K)`` (float).
        positive (~chainer.Variable or N-dimensional array): Positives, like
            the anchors.
        negative (~chainer.Variable or N-dimensional array): Negatives, like
            the anchors.
        margin (float): Margin ``m`` (positive).
        reduce (str): ``'mean'`` or ``'no'``.

    Returns:
        ~chainer.Variable: A scalar, or the per-sample losses of shape ``(N,)``.

    .. admonition:: Example

        >>> a = np.zeros((1, 2), 'f')
        >>> F.triplet(a, a + 1, a + 2, margin=1.).array
        array(0., dtype=float32)
    """
    return Triplet(margin, reduce).apply((anchor, positive, negative))[0]
