"""Hard (piecewise-linear) sigmoid."""
from chainer import backend
from chainer import function_node
from chainer.functions.activation import _grad_util
from chainer.utils import type_check
from chainer.functions import _static_arrays


class HardSigmoid(function_node.FunctionNode):
    """Piecewise-linear sigmoid ``clip(0.2 x + 0.5, 0, 1)``."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        t = x.dtype.type
        self.retain_inputs((0,))
        y = x * t(0.2)
        y += t(0.5)
        return xp.clip(y, t(0), t(1)),

    def backward(self, indexes, grad_outputs):
        coef, = _static_arrays.compute(_slopes, self.inputs[0].data)
        return _grad_util.ScaleGrad(coef).apply(grad_outputs)


def hard_sigmoid(x):
    """Elementwise hard sigmoid function.

    .. math::
        f(x) = \\begin{cases}
            0 & (x < -2.5) \\\\ 0.2 x + 0.5 & (-2.5 \\le x \\le 2.5) \\\\ 1 & (2.5 < x)
        \\end{cases}

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([-3., -1., 0., 2.5, 4.], np.float32)
        >>> F.hard_sigmoid(x).array
        array([0. , 0.3, 0.5, 1. , 1. ], dtype=float32)
    """
    return HardSigmoid().apply((x,))[0]


def _slopes(x):
    xp = backend.get_array_module(x)
    t = x.dtype.type
    return xp.where((x > t(-2.5)) & (x < t(2.5)), t(0.2), t(0))
