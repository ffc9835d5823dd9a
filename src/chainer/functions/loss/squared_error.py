"""Elementwise squared error of two arrays."""
from chainer import function_node
from chainer.functions.loss import _common


class SquaredError(function_node.FunctionNode):
    """Elementwise ``(x0 - x1) ** 2``."""

    def check_type_forward(self, in_types):
        _common.check_same_float(in_types)

    def forward(self, inputs):
        x0, x1 = inputs
        self.retain_inputs((0, 1))
        diff = x0 - x1
        diff *= diff
        return diff,

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        g = grad_outputs[0] * (x0 - x1) * 2
        return tuple(g if i == 0 else -g for i in indexes)


def squared_error(x0, x1):
    """Elementwise squared error.

    .. math:: y_i = (x_{0,i} - x_{1,i})^2

    Args:
        x0 (~chainer.Variable or N-dimensional array): First input (float).
        x1 (~chainer.Variable or N-dimensional array): Second input, of the
            same shape and dtype.

    Returns:
        ~chainer.Variable: The squared error, of the inputs' shape and dtype.

    .. admonition:: Example

        >>> F.squared_error(np.array([1., 2.], 'f'), np.array([0., 4.], 'f')).array
        array([1., 4.], dtype=float32)
    """
    return SquaredError().apply((x0, x1))[0]


def squared_difference(x1, x2):
    """Elementwise squared difference: another name of :func:`squared_error`.

    Args:
        x1 (~chainer.Variable or N-dimensional array): First input (float).
        x2 (~chainer.Variable or N-dimensional array): Second input, of the
            same shape and dtype.

    Returns:
        ~chainer.Variable: ``(x1 - x2) ** 2``.
    """
    return squared_error(x1, x2)
