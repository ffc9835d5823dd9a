"""Hinge loss of one-vs-rest classification."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _old_style
from chainer.functions.loss import _common
from chainer.utils import type_check
from chainer.functions import _static_arrays


class Hinge(_old_style.FunctionCall, function_node.FunctionNode):
    """One-vs-rest hinge loss with the L1 or squared (L2) penalty."""

    def __init__(self, norm='L1', reduce='mean'):
        if norm not in ('L1', 'L2'):
            raise NotImplementedError(f"hinge: norm should be either 'L1' or 'L2', got {norm!r}")
        _common.check_reduce('hinge', reduce, ('mean', 'no'))
        self.norm = norm
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x, t = in_types
        type_check.expect(x.dtype.kind == 'f', t.dtype.kind == 'i',
                          x.ndim == 2, t.ndim == 1, x.shape[0] == t.shape[0])

    def _signs(self, x, t):
        # +1 everywhere, -1 at the true class: the margin of every entry is 1 + sign * x.
        xp = backend.get_array_module(x)
        s = xp.ones_like(x)
        s[xp.arange(len(t)), t] = -1
        return s

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        _common.check_labels('hinge', t, x.shape[1])
        self.retain_inputs((0,))
        self.signs = self._signs(x, t)
        loss = xp.maximum(1 + self.signs * x, 0)
        if self.norm == 'L2':
            loss *= loss
        if self.reduce == 'mean':
            loss = loss.sum() / len(x)
        return xp.asarray(loss, x.dtype),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        s = self.signs
        if self.reduce == 'mean':
            gy = F.broadcast_to(gy, x.shape) / len(x)
        if self.norm == 'L1':
            slope, = _static_arrays.compute(_l1_slope, x.array, s)
            g = gy * slope
        else:
            g = gy * F.relu(1 + s * x) * (2 * s)
        return tuple(g if i == 0 else None for i in indexes)


def hinge(x, t, norm='L1', reduce='mean'):
    """Hinge loss of one-vs-rest classification.

    .. math::
        l_{nk} = \\max(0, 1 - \\delta(t_n = k) x_{nk} + (1 - \\delta(t_n = k)) x_{nk})^p

    with :math:`p = 1` (``'L1'``) or :math:`p = 2` (``'L2'``).

    Args:
        x (~chainer.Variable or N-dimensional array): Scores of shape
            ``(N, K)`` (float).
        t (~chainer.Variable or N-dimensional array): Labels in ``[0, K)``
            of shape ``(N,)`` (int).
        norm (str): ``'L1'`` or ``'L2'``.
        reduce (str): ``'mean'`` (the sum divided by ``N``) or ``'no'``
            (the ``(N, K)`` elementwise losses).

    Returns:
        ~chainer.Variable: The loss.

    .. admonition:: Example

        >>> x = np.array([[2., -2.]], 'f')
        >>> F.hinge(x, np.array([0], 'i'), reduce='no').array
        array([[0., 0.]], dtype=float32)
    """
    return Hinge(norm, reduce).apply((x, t))[0]


def _l1_slope(x, signs):
    return signs * (1 + signs * x > 0)
