"""Concatenated rectified linear unit."""
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class CReLU(function_node.FunctionNode):
    """Concatenates ``max(0, x)`` and ``max(0, -x)`` along ``axis``."""

    def __init__(self, axis=1):
        if isinstance(axis, bool) or not isinstance(axis, int):
            raise TypeError(f'axis must be an integer value, got {type(axis).__name__}')
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            -x_type.ndim <= self.axis,
            self.axis < x_type.ndim,
        )

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self._axis = self.axis % x.ndim
        self.retain_inputs((0,))
        return xp.concatenate((xp.maximum(x, 0), xp.maximum(-x, 0)), axis=self._axis),

    def backward(self, indexes, grad_outputs):
        x = self.inputs[0].data
        return _CReLUGrad(x > 0, x < 0, self._axis).apply(grad_outputs)


class _CReLUGrad(function_node.FunctionNode):
    """``gx = gy_pos * (x > 0) - gy_neg * (x < 0)``, for fixed masks.

    It is linear in ``gy``; its adjoint, :class:`_CReLUGradT`, rebuilds the
    concatenated layout.
    """

    def __init__(self, pos, neg, axis):
        self.pos = pos
        self.neg = neg
        self.axis = axis

    def forward(self, inputs):
        gy, = inputs
        n = self.pos.shape[self.axis]
        index = (slice(None),) * self.axis
        gx = gy[index + (slice(None, n),)] * self.pos
        gx -= gy[index + (slice(n, None),)] * self.neg
        return gx,

    def backward(self, indexes, grad_outputs):
        return _CReLUGradT(self).apply(grad_outputs)


class _CReLUGradT(function_node.FunctionNode):
    """Adjoint of :class:`_CReLUGrad`: ``concat(g * (x > 0), -g * (x < 0))``."""

    def __init__(self, grad):
        self.grad = grad

    def forward(self, inputs):
        g, = inputs
        xp = backend.get_array_module(g)
        gr = self.grad
        return xp.concatenate((g * gr.pos, -(g * gr.neg)), axis=gr.axis),

    def backward(self, indexes, grad_outputs):
        gr = self.grad
        return _CReLUGrad(gr.pos, gr.neg, gr.axis).apply(grad_outputs)


def crelu(x, axis=1):
    """Concatenated rectified linear unit function.

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
