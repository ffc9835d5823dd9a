"""Softmax along an axis."""
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.activation import _grad_util
from chainer.functions.math import sum as _sum


class Softmax(function_node.FunctionNode):
    """Softmax along one axis, shifted by the maximum for stability."""

    def __init__(self, axis=1):
        self.axis = _checks.axis_arg('softmax', axis)

    def check_type_forward(self, in_types):
        _grad_util.check_axis_input(in_types, self.axis, 'softmax')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        if x.size == 0:
            return xp.empty_like(x),
        # Subtracting the maximum makes every exponent <= 0: no overflow, and
        # the largest term is exactly 1 so the sum is never 0.
        y = x - x.max(axis=self.axis, keepdims=True)
        xp.exp(y, out=y)
        y /= y.sum(axis=self.axis, keepdims=True)
        return y,

    def backward(self, indexes, grad_outputs):
        y = self.get_retained_outputs()[0]
        return _SoftmaxGrad(self.axis).apply((y, grad_outputs[0]))


class _SoftmaxGrad(function_node.FunctionNode):
    """Computes ``y * (gy - sum(y * gy))`` for the output ``y`` of softmax."""

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        y, gy = inputs
        self.retain_inputs((0, 1))
        gx = y * gy
        gx -= y * gx.sum(axis=self.axis, keepdims=True)
        return gx,

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        axis = self.axis
        ret = []
        if 0 in indexes:
            # d gx_i / d y_j = delta_ij (gy_i - s) - y_i gy_j, with s = sum(y gy)
            s = _sum.sum(y * gy, axis=axis, keepdims=True)
            t = _sum.sum(ggx * y, axis=axis, keepdims=True)
            ret.append(ggx * (gy - s) - gy * t)
        if 1 in indexes:
            # The map gy -> gx is symmetric, so its adjoint is itself.
            ret.append(_SoftmaxGrad(axis).apply((y, ggx))[0])
        return tuple(ret)


def softmax(x, axis=1):
    """Softmax function along an axis.

    .. math:: y_i = \\frac{\\exp(x_i)}{\\sum_j \\exp(x_j)}

    The maximum along ``axis`` is subtracted first, so very large logits do
    not overflow.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float) of at
            least ``axis + 1`` dimensions.
        axis (int): Axis along which to normalize.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype; it sums to 1
        along ``axis``.

    .. admonition:: Example

        >>> x = np.array([[0., 1., 2.], [0., 0., 1e4]], np.float32)
        >>> F.softmax(x).array
        array([[0.09003057, 0.24472846, 0.66524094],
               [0.        , 0.        , 1.        ]], dtype=float32)
    """
    return Softmax(axis).apply((x,))[0]
