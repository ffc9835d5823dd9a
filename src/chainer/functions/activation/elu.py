"""Exponential linear unit."""
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class ELU(function_node.FunctionNode):
    """Exponential linear unit: ``x`` for ``x > 0``, ``alpha (exp(x) - 1)`` elsewhere."""

    # SELU reuses this node with a different output scale.
    scale = 1.0

    def __init__(self, alpha=1.0):
        self.alpha = float(alpha)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        t = x.dtype.type
        self.retain_inputs((0,))
        # expm1 on min(x, 0) keeps precision near 0 and never overflows.
        y = xp.where(x > 0, x, t(self.alpha) * xp.expm1(xp.minimum(x, t(0))))
        if self.scale != 1.0:
            y *= t(self.scale)
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return ELUGrad(self.alpha, self.scale).apply((x, grad_outputs[0]))


class ELUGrad(function_node.FunctionNode):
    """Computes ``gy * scale * (1 if x > 0 else alpha exp(x))``."""

    def __init__(self, alpha, scale=1.0):
        self.alpha = alpha
        self.scale = scale

    def forward(self, inputs):
        x, gy = inputs
        xp = backend.get_array_module(x)
        t = x.dtype.type
        self.retain_inputs((0, 1))
        self._positive = x > 0
        slope = xp.where(self._positive, t(1), t(self.alpha) * xp.exp(xp.minimum(x, t(0))))
        if self.scale != 1.0:
            slope *= t(self.scale)
        return gy * slope,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            # The slope's own derivative is alpha exp(x) on x <= 0 (the slope
            # itself there) and 0 on x > 0: reuse this node and remove the
            # positive part.
            g = ggx * gy
            ret.append(ELUGrad(self.alpha, self.scale).apply((x, g))[0]
                       - g * (self._positive * x.dtype.type(self.scale)))
        if 1 in indexes:
            ret.append(ELUGrad(self.alpha, self.scale).apply((x, ggx))[0])
        return tuple(ret)


def elu(x, alpha=1.0):
    """ELU: ``x`` for positive inputs, ``alpha * (exp(x) - 1)`` for the others.

    .. math::
        f(x) = \\begin{cases} x & (x > 0) \\\\ \\alpha (\\exp(x) - 1) & (x \\le 0) \\end{cases}

    See Clevert et al., *Fast and Accurate Deep Network Learning by
    Exponential Linear Units (ELUs)* (https://arxiv.org/abs/1511.07289).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        alpha (float): Scale of the negative part.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([-1., 0., 2.], np.float32)
        >>> F.elu(x).array
        array([-0.63212055,  0.        ,  2.        ], dtype=float32)
    """
    return ELU(alpha).apply((x,))[0]
