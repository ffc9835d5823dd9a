"""Contrastive loss of pairs of embeddings."""

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.loss import _common
from chainer.utils import type_check


class Contrastive(function_node.FunctionNode):
    """Contrastive loss of a batch of pairs with 0/1 similarity labels."""

    def __init__(self, margin, reduce='mean'):
        _common.check_positive('contrastive', 'margin', margin)
        _common.check_reduce('contrastive', reduce, ('mean', 'no'))
        self.margin = margin
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x0', 'x1', 'y'))
        x0, x1, y = in_types
        type_check.expect(
            x0.dtype.kind == 'f', x0.dtype == x1.dtype, y.dtype.kind == 'i',
            x0.shape == x1.shape, x1.shape[0] == y.shape[0], x1.shape[0] > 0,
            x0.ndim == 2, x1.ndim == 2, y.ndim == 1)

    def forward(self, inputs):
        x0, x1, y = inputs
        xp = backend.get_array_module(x0)
        _common.check_labels('contrastive', y, 2, name='y')
        self.retain_inputs((0, 1, 2))
        diff = x0 - x1
        d2 = (diff * diff).sum(axis=1)
        far = xp.maximum(self.margin - xp.sqrt(d2), 0)
        loss = 0.5 * xp.where(y == 1, d2, far * far)
        if self.reduce == 'mean':
            loss = loss.sum() / len(y)
        return xp.asarray(loss, x0.dtype),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        x0, x1, y = self.get_retained_inputs()
        xp = backend.get_array_module(x0)
        gy, = grad_outputs
        n = len(y)
        diff = x0 - x1
        d2 = F.sum(diff * diff, axis=1)
        similar = y.array == 1
        # A dissimilar pair contributes -(margin - d)_+ / d * diff; at d == 0 its
        # central difference is 0, so that is the gradient used there.
        nonzero = d2.array > 0
        dist = F.sqrt(F.where(nonzero, d2, xp.ones_like(d2.array)))
        push = -F.relu(self.margin - dist) / dist
        push = F.where(nonzero, push, xp.zeros_like(push.array))
        coef = F.where(similar, xp.ones_like(d2.array), push)
        if self.reduce == 'mean':
            coef = coef * F.broadcast_to(gy, coef.shape) / n
        else:
            coef = coef * gy
        g = diff * F.broadcast_to(F.expand_dims(coef, 1), diff.shape)
        return tuple({0: g, 1: -g}.get(i) for i in indexes)


def contrastive(x0, x1, y, margin=1, reduce='mean'):
    """Contrastive loss of pairs of vectors.

    For a pair at distance :math:`d = \\|x_0 - x_1\\|_2` the loss is
    :math:`\\frac{1}{2} d^2` when ``y`` is 1 (a similar pair) and
    :math:`\\frac{1}{2} \\max(m - d, 0)^2` when ``y`` is 0.

    Args:
        x0 (~chainer.Variable or N-dimensional array): First vectors, of
            shape ``(N, K)`` (float).
        x1 (~chainer.Variable or N-dimensional array): Second vectors, of the
            same shape and dtype.
        y (~chainer.Variable or N-dimensional array): Labels, 0 or 1, of
            shape ``(N,)`` (int).
        margin (float): Margin ``m`` (positive).
        reduce (str): ``'mean'`` (sum over the batch divided by ``N``) or
            ``'no'``.

    Returns:
        ~chainer.Variable: A scalar, or the per-pair losses of shape ``(N,)``.

    .. admonition:: Example

        >>> x0 = np.array([[0., 0.], [0., 0.]], 'f')
        >>> x1 = np.array([[3., 4.], [0.3, 0.4]], 'f')
        >>> F.contrastive(x0, x1, np.array([1, 0], 'i'), reduce='no').array
        array([12.5  ,  0.125], dtype=float32)
    """
    return Contrastive(margin, reduce).apply((x0, x1, y))[0]
