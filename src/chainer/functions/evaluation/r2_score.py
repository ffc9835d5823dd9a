"""Coefficient of determination (R^2)."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _old_style
from chainer.utils import type_check


class R2_score(_old_style.FunctionCall, function_node.FunctionNode):
    """R^2 of predictions along the first axis (no gradient)."""

    def __init__(self, sample_weight, multioutput):
        if sample_weight is not None:
            raise NotImplementedError('r2_score: sample_weight is not supported')
        if multioutput not in ('uniform_average', 'raw_values'):
            raise ValueError("r2_score: invalid multioutput argument: expected "
                             f"'uniform_average' or 'raw_values', got {multioutput!r}")
        self.multioutput = multioutput

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('pred', 'true'))
        pred, true = in_types
        # true may have another float dtype (the score has pred's), as in Chainer 7.8.1
        type_check.expect(pred.dtype.kind == 'f', true.dtype.kind == 'f',
                          pred.shape == true.shape)

    def forward(self, inputs):
        pred, true = inputs
        xp = backend.get_array_module(pred)
        ss_res = ((true - pred) ** 2).sum(axis=0)
        ss_tot = ((true - true.mean(axis=0)) ** 2).sum(axis=0) if len(true) else ss_res
        # an output whose true values do not vary (or an empty batch) scores 0, as in
        # Chainer 7.8.1, rather than NaN or -inf
        with numpy.errstate(divide='ignore', invalid='ignore'):
            r2 = xp.where(ss_tot == 0, 0, 1 - ss_res / ss_tot)
        if self.multioutput == 'uniform_average':
            r2 = r2.mean()
        return xp.asarray(r2, pred.dtype),


def r2_score(pred, true, sample_weight=None, multioutput='uniform_average'):
    """Coefficient of determination of predictions.

    .. math:: R^2 = 1 - \\frac{\\sum_i (t_i - p_i)^2}{\\sum_i (t_i - \\bar{t})^2}

    computed along the first axis, for each output.

    Args:
        pred (~chainer.Variable or N-dimensional array): Predictions (float).
        true (~chainer.Variable or N-dimensional array): True values, of the
            same shape (float; the score has the dtype of ``pred``).
        sample_weight: Only ``None`` is supported.
        multioutput (str): ``'uniform_average'`` averages the outputs' scores;
            ``'raw_values'`` returns one per output.

    Returns:
        ~chainer.Variable: The score, of the dtype of ``pred``, not
        differentiable.

    .. admonition:: Example

        >>> t = np.array([1., 2., 3.], 'f')
        >>> F.r2_score(t, t).array
        array(1., dtype=float32)
    """
    return R2_score(sample_weight, multioutput).apply((pred, true))[0]
