"""Accuracy of binary classification from logits."""
from chainer import backend
from chainer import function_node
from chainer.functions import _old_style
from chainer.functions.loss import _common
from chainer.utils import type_check


class BinaryAccuracy(_old_style.FunctionCall, function_node.FunctionNode):
    """Fraction of entries with ``(x >= 0) == t``; label -1 is ignored (no gradient)."""

    ignore_label = -1

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x, t = in_types
        type_check.expect(x.dtype.kind == 'f', t.dtype.kind == 'i', t.shape == x.shape)

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        _common.check_labels('binary_accuracy', t, 2, self.ignore_label)
        mask = t != self.ignore_label
        total = mask.sum()
        hit = (mask & ((x >= 0) == (t == 1))).sum()
        return xp.asarray(xp.where(total == 0, 0., hit / xp.maximum(total, 1)), x.dtype),


def binary_accuracy(y, t):
    """Accuracy of binary predictions: ``y >= 0`` predicts 1.

    Args:
        y (~chainer.Variable or N-dimensional array): Logits (float).
        t (~chainer.Variable or N-dimensional array): Labels 0, 1 or -1
            (ignored), of the shape of ``y`` (int).

    Returns:
        ~chainer.Variable: A scalar of the dtype of ``y``, not differentiable.

    .. admonition:: Example

        >>> y = np.array([[1., -1., 2.]], 'f')
        >>> F.binary_accuracy(y, np.array([[1, 1, -1]], 'i')).array
        array(0.5, dtype=float32)
    """
    return BinaryAccuracy().apply((y, t))[0]
