"""Concatenated rectified linear unit."""
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.activation import _grad_util
from chainer.functions import _static_arrays


class CReLU(function_node.FunctionNode):
    """Concatenates ``max(0, x)`` and ``max(0, -x)`` along ``axis``."""

    def __init__(self, axis=1):
        self.axis = _checks.axis_arg('crelu', axis, bool_ok=True)

    def check_type_forward(self, in_types):
        _grad_util.check_axis_input(in_types, self.axis, 'crelu')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self._axis = self.axis % x.ndim
        self.retain_inputs((0,))
        return xp.concatenate((xp.maximum(x, 0), xp.maximum(-x, 0)), axis=self._axis),

    def backward(self, indexes, grad_outputs):
        x = self.inputs[0].data
        pos, neg = _static_arrays.compute(_signs, x)
        axis = self._axis
        index = (slice(None),) * axis
        n = x.shape[axis]

        def split(gy):  # gx = gy_pos * (x > 0) - gy_neg * (x < 0)
            gx = gy[index + (slice(None, n),)] * pos
            gx -= gy[index + (slice(n, None),)] * neg
            return gx

        def concat(g):  # the adjoint: concat(g * (x > 0), -g * (x < 0))
            xp = backend.get_array_module(g)
            return xp.concatenate((g * pos, -(g * neg)), axis=axis)

        return _grad_util.LinearMap(split, concat).apply(grad_outputs)


def crelu(x, axis=1):
    """CReLU: the positive and the negative part of ``x``, concatenated along ``axis``.

    .. math:: f(x) = (\\max(0, x), \\max(0, -x))

    The two halves are concatenated along ``axis``, so that dimension doubles.
    See Shang et al., *Understanding and Improving Convolutional Neural
    Networks via Concatenated Rectified Linear Units*
    (https://arxiv.org/abs/1603.05201).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        axis (int): Axis along which the two halves are concatenated.

    Returns:
        ~chainer.Variable: Output whose ``axis`` dimension is twice that of
        ``x``.

    .. admonition:: Example

        >>> x = np.array([[-1., 2.]], np.float32)
        >>> F.crelu(x).array
        array([[0., 2., 1., 0.]], dtype=float32)
    """
    return CReLU(axis).apply((x,))[0]


def _signs(x):
    return x > 0, x < 0
