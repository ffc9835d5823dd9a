"""Mean squared error of two arrays."""
import numpy

from chainer import function_node
from chainer import utils
from chainer.functions.loss import _common


class MeanSquaredError(function_node.FunctionNode):
    """``mean((x0 - x1) ** 2)`` over all elements."""

    def check_type_forward(self, in_types):
        _common.check_same_float(in_types)

    def forward(self, inputs):
        x0, x1 = inputs
        self.retain_inputs((0, 1))
        diff = (x0 - x1).ravel()
        if diff.dtype == numpy.float16:
            diff = diff.astype(numpy.float32)  # the sum of squares overflows in half precision
        # the mean of an empty batch is NaN, as NumPy's (and Chainer 7.8.1's)
        mean = diff.dot(diff) / diff.size if diff.size else diff.sum() * numpy.nan
        return utils.force_array(mean, x0.dtype),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        g = (x0 - x1) * gy * (2. / max(x0.size, 1))
        return tuple(g if i == 0 else -g for i in indexes)


def mean_squared_error(x0, x1):
    """Mean squared error over all elements.

    .. math:: \\frac{1}{N} \\sum_i (x_{0,i} - x_{1,i})^2

    Args:
        x0 (~chainer.Variable or N-dimensional array): First input (float).
        x1 (~chainer.Variable or N-dimensional array): Second input, of the
            same shape and dtype.

    Returns:
        ~chainer.Variable: A scalar of the inputs' dtype.

    .. admonition:: Example

        >>> F.mean_squared_error(np.array([1., 2.], 'f'), np.array([0., 4.], 'f')).array
        array(2.5, dtype=float32)
    """
    return MeanSquaredError().apply((x0, x1))[0]
