"""Leaky rectified linear unit."""
from chainer import backend
from chainer import function_node
from chainer.functions.activation import _grad_util
from chainer.utils import type_check
from chainer.functions import _static_arrays


class LeakyReLU(function_node.FunctionNode):
    """Leaky rectifier: ``x`` where ``x >= 0``, ``slope * x`` elsewhere."""

    def __init__(self, slope=0.2):
        self.slope = slope

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return xp.where(x >= 0, x, x * x.dtype.type(self.slope)),

    def backward(self, indexes, grad_outputs):
        x = self.inputs[0].data
        coef, = _static_arrays.compute(_slopes, x, slope=self.slope)
        return _grad_util.ScaleGrad(coef).apply(grad_outputs)


def leaky_relu(x, slope=0.2):
    """Rectifier that lets a small ``slope`` of the negative inputs through.

    .. math::
        f(x) = \\begin{cases} x & (x \\ge 0) \\\\ a x & (x < 0) \\end{cases}

    where :math:`a` is ``slope``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        slope (float): Slope of the negative part.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([[-1, 0], [2, -3]], np.float32)
        >>> F.leaky_relu(x, slope=0.2).array
        array([[-0.2,  0. ],
               [ 2. , -0.6]], dtype=float32)
    """
    return LeakyReLU(slope).apply((x,))[0]


def _slopes(x, slope):
    xp = backend.get_array_module(x)
    return xp.where(x >= 0, x.dtype.type(1), x.dtype.type(slope))
