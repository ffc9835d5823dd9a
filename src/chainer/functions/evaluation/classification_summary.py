"""Per-class precision, recall, F-beta score and support."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _old_style
from chainer.functions import _checks
from chainer.functions.evaluation import accuracy
from chainer.functions.loss import _common
from chainer.utils import type_check


class ClassificationSummary(_old_style.FunctionCall, function_node.FunctionNode):
    """Precision, recall, F-beta score and support of arg-max predictions (no gradient)."""

    def __init__(self, label_num, beta, ignore_label):
        if label_num is not None and not (_checks.is_int(label_num) and label_num > 0):
            raise ValueError(f'classification_summary: label_num must be a positive int '
                             f'or None, got {label_num!r}')
        self.label_num = label_num
        self.beta = beta
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x, t = in_types
        type_check.expect(x.dtype.kind == 'f', t.dtype.kind == 'i')
        accuracy._expect_class_axis(x, t)

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        # without label_num, the classes are those up to the largest label in t (as in
        # Chainer 7.8.1), which can be fewer or more than the columns of x
        if self.label_num is not None:
            n = self.label_num
        else:
            n = int(t.max()) + 1 if t.size else 0
        _common.check_labels('classification_summary', t, n, self.ignore_label)
        mask = (t != self.ignore_label).ravel()
        pred = x.argmax(axis=1).ravel()[mask]
        true = t.ravel()[mask]
        # Counts over [0, n): predictions beyond it (label_num < C) are dropped.
        size = max(n, x.shape[1])
        support = xp.bincount(true, minlength=size)[:n]
        relevant = xp.bincount(pred, minlength=size)[:n]
        tp = xp.bincount(true[pred == true], minlength=size)[:n]
        with numpy.errstate(divide='ignore', invalid='ignore'):
            precision = tp / relevant
            recall = tp / support
            b2 = self.beta * self.beta
            fbeta = (1 + b2) * precision * recall / (b2 * precision + recall)
        return precision, recall, fbeta, support.astype(numpy.int64)


def classification_summary(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Per-class precision, recall, F-beta score and support.

    The prediction at each position is the arg-max of ``y`` along axis 1.

    .. math::
        P_c = \\frac{TP_c}{TP_c + FP_c}, \\quad
        R_c = \\frac{TP_c}{TP_c + FN_c}, \\quad
        F_c = \\frac{(1 + \\beta^2) P_c R_c}{\\beta^2 P_c + R_c}

    A class never predicted (or never present) gets NaN where the
    denominator is 0.

    Args:
        y (~chainer.Variable or N-dimensional array): Scores of shape
            ``(N, C)`` or ``(N, C, d1, ..., dk)`` (float).
        t (~chainer.Variable or N-dimensional array): Labels of shape
            ``(N,)`` or ``(N, d1, ..., dk)`` (int).
        label_num (int or None): Number of classes (default: the largest
            label in ``t`` plus one); labels must be in ``[0, label_num)`` or
            ``ignore_label``.
        beta (float): Weight of recall in the F-beta score.
        ignore_label (int): Label of the positions left out.

    Returns:
        tuple of ~chainer.Variable: precision, recall and F-beta (float64)
        and support (int64), each of shape ``(label_num,)``.

    .. admonition:: Example

        >>> y = np.array([[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], 'f')
        >>> p, r, f, s = F.classification_summary(y, np.array([0, 1, 1], 'i'))
        >>> r.array, s.array
        (array([1. , 0.5]), array([1, 2]))
    """
    return ClassificationSummary(label_num, beta, ignore_label).apply((y, t))


def precision(y, t, label_num=None, ignore_label=-1):
    """Per-class precision and support; see :func:`classification_summary`.

    Returns:
        tuple of ~chainer.Variable: precision (float64) and support (int64).
    """
    ret = classification_summary(y, t, label_num, 1.0, ignore_label)
    return ret[0], ret[-1]


def recall(y, t, label_num=None, ignore_label=-1):
    """Per-class recall and support; see :func:`classification_summary`.

    Returns:
        tuple of ~chainer.Variable: recall (float64) and support (int64).
    """
    ret = classification_summary(y, t, label_num, 1.0, ignore_label)
    return ret[1], ret[-1]


def fbeta_score(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Per-class F-beta score and support; see :func:`classification_summary`.

    Returns:
        tuple of ~chainer.Variable: F-beta score (float64) and support (int64).
    """
    ret = classification_summary(y, t, label_num, beta, ignore_label)
    return ret[2], ret[-1]


def f1_score(y, t, label_num=None, ignore_label=-1):
    """Per-class F1 score and support; see :func:`classification_summary`.

    Returns:
        tuple of ~chainer.Variable: F1 score (float64) and support (int64).
    """
    return fbeta_score(y, t, label_num, 1.0, ignore_label)
