"""Classification accuracy."""
from chainer import backend
from chainer import function_node
from chainer.functions.loss import _common
from chainer.utils import type_check


def _expect_class_axis(x, t):
    # x is (N, C, d1, ..., dk) followed by any number of axes of size 1, t is (N, d1, ..., dk):
    # Chainer's conditions in its order, then the number of axes, which it leaves to forward.
    t_ndim = type_check.eval(t.ndim)
    type_check.expect(x.shape[0] == t.shape[0], x.shape[2: t_ndim + 1] == t.shape[1:])
    for i in range(t_ndim + 1, type_check.eval(x.ndim)):
        type_check.expect(x.shape[i] == 1)
    type_check.expect(x.ndim >= t.ndim + 1)


class Accuracy(function_node.FunctionNode):
    """Fraction of positions whose arg-max class is the label (no gradient)."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x, t = in_types
        type_check.expect(x.dtype.kind == 'f', t.dtype.kind == 'i')
        _expect_class_axis(x, t)

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        _common.check_labels('accuracy', t, x.shape[1], self.ignore_label)
        pred = x.argmax(axis=1).reshape(t.shape)
        if self.ignore_label is None:
            return xp.asarray((pred == t).mean(), x.dtype),
        mask = t != self.ignore_label
        total = mask.sum()
        hit = (mask & (pred == t)).sum()
        # No label counted: 0, as Chainer returns.
        return xp.asarray(xp.where(total == 0, 0., hit / xp.maximum(total, 1)), x.dtype),


def accuracy(y, t, ignore_label=None):
    """Fraction of correct arg-max predictions.

    Args:
        y (~chainer.Variable or N-dimensional array): Scores of shape
            ``(N, C)`` or ``(N, C, d1, ..., dk)``, possibly followed by axes
            of size 1 (float).
        t (~chainer.Variable or N-dimensional array): Labels in ``[0, C)``
            of shape ``(N,)`` or ``(N, d1, ..., dk)`` (int).
        ignore_label (int or None): Label of the positions left out of both
            counts.

    Returns:
        ~chainer.Variable: A scalar of the dtype of ``y``, not differentiable.

    Raises:
        ValueError: a label is neither in ``[0, C)`` nor ``ignore_label``
            (checked on CPU, and on GPU under ``chainer.config.debug``);
            Chainer 7 counted such labels as misses.

    .. admonition:: Example

        >>> y = np.array([[0.1, 0.9], [0.8, 0.2]], 'f')
        >>> F.accuracy(y, np.array([1, 1], 'i')).array
        array(0.5, dtype=float32)
    """
    return Accuracy(ignore_label).apply((y, t))[0]
