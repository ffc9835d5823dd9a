"""Clipped rectified linear unit (and ReLU6)."""
import numbers

from chainer import backend
from chainer import function_node
from chainer.functions.activation import _grad_util
from chainer.utils import type_check
from chainer.functions import _static_arrays


class ClippedReLU(function_node.FunctionNode):
    """Rectifier clipped from above: ``min(max(0, x), z)``."""

    def __init__(self, z):
        if isinstance(z, bool) or not isinstance(z, numbers.Real):
            raise TypeError(f'z must be a float value, got {type(z).__name__}')
        if not z > 0:
            raise ValueError(f'z must be positive, got {z}')
        self.cap = float(z)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return xp.clip(x, x.dtype.type(0), x.dtype.type(self.cap)),

    def backward(self, indexes, grad_outputs):
        x = self.inputs[0].data
        # NOTE: the slope is 1 only strictly inside (0, z); both kinks count as flat.
        coef, = _static_arrays.compute(_slopes, x, cap=self.cap)
        return _grad_util.ScaleGrad(coef).apply(grad_outputs)


def clipped_relu(x, z=20.0):
    """Clipped rectified linear unit function.

    .. math:: f(x) = \\min(\\max(0, x), z)

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        z (float): Clipping value (must be positive).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([-1., 0.5, 3.], np.float32)
        >>> F.clipped_relu(x, z=2.0).array
        array([0. , 0.5, 2. ], dtype=float32)
    """
    return ClippedReLU(z).apply((x,))[0]


def relu6(x):
    """Rectified linear unit clipped at 6.

    .. math:: f(x) = \\min(\\max(0, x), 6)

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([-3., 2., 10.], np.float32)
        >>> F.relu6(x).array
        array([0., 2., 6.], dtype=float32)
    """
    return ClippedReLU(6.0).apply((x,))[0]


def _slopes(x, cap):
    return ((x > 0) & (x < cap)).astype(x.dtype)
