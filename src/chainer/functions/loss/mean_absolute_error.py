"""Mean absolute error of two arrays."""
import numpy

from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.functions.loss import _common
from chainer.functions import _static_arrays


class MeanAbsoluteError(function_node.FunctionNode):
    """``mean(|x0 - x1|)`` over all elements."""

    def check_type_forward(self, in_types):
        _common.check_same_float(in_types)

    def forward(self, inputs):
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        self.diff = x0 - x1
        acc = numpy.float32 if x0.dtype == numpy.float16 else x0.dtype
        # the mean of an empty batch is NaN, as NumPy's (and Chainer 7.8.1's)
        mean = xp.abs(self.diff).sum(dtype=acc) / x0.size if x0.size else xp.full((), numpy.nan, acc)
        return utils.force_array(mean, x0.dtype),

    def backward(self, indexes, grad_outputs):
        # NOTE: the sign is piecewise constant, so the gradient is gy times a constant.
        slope, = _static_arrays.compute(_slope, self.diff)
        g = grad_outputs[0] * slope
        return tuple(g if i == 0 else -g for i in indexes)


def mean_absolute_error(x0, x1):
    """Mean absolute error over all elements.

    .. math:: \\frac{1}{N} \\sum_i |x_{0,i} - x_{1,i}|

    Args:
        x0 (~chainer.Variable or N-dimensional array): First input (float).
        x1 (~chainer.Variable or N-dimensional array): Second input, of the
            same shape and dtype.

    Returns:
        ~chainer.Variable: A scalar of the inputs' dtype.

    .. admonition:: Example

        >>> F.mean_absolute_error(np.array([1., 2.], 'f'), np.array([0., 4.], 'f')).array
        array(1.5, dtype=float32)
    """
    return MeanAbsoluteError().apply((x0, x1))[0]


def _slope(diff):
    xp = backend.get_array_module(diff)
    return (xp.sign(diff) / max(diff.size, 1)).astype(diff.dtype, copy=False)
