"""Elementwise absolute error of two arrays."""
from chainer import backend
from chainer import function_node
from chainer.functions.loss import _common


class AbsoluteError(function_node.FunctionNode):
    """Elementwise ``|x0 - x1|``."""

    def check_type_forward(self, in_types):
        _common.check_same_float(in_types)

    def forward(self, inputs):
        x0, x1 = inputs
        xp = backend.get_array_module(x0)
        self.diff = x0 - x1
        return xp.abs(self.diff),

    def backward(self, indexes, grad_outputs):
        # NOTE: the sign is piecewise constant, so the gradient is gy times a constant.
        g = grad_outputs[0] * backend.get_array_module(self.diff).sign(self.diff)
        return tuple(g if i == 0 else -g for i in indexes)


def absolute_error(x0, x1):
    """Elementwise absolute error.

    .. math:: y_i = |x_{0,i} - x_{1,i}|

    Args:
        x0 (~chainer.Variable or N-dimensional array): First input (float).
        x1 (~chainer.Variable or N-dimensional array): Second input, of the
            same shape and dtype.

    Returns:
        ~chainer.Variable: The absolute error, of the inputs' shape and dtype.

    .. admonition:: Example

        >>> F.absolute_error(np.array([1., 2.], 'f'), np.array([0., 4.], 'f')).array
        array([1., 2.], dtype=float32)
    """
    return AbsoluteError().apply((x0, x1))[0]
