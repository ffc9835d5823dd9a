"""Reshape without copying."""
import chainer
from chainer import function_node
from chainer.functions.array import _checks
from chainer.utils import type_check


def _normalize_shape(shape):
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = (shape,)
    shape = tuple(shape)
    if sum(1 for s in shape if s < 0) > 1:
        raise ValueError(f'Shape can include only one unknown dimension (-1), got {shape}')
    if any(s < -1 for s in shape):
        raise ValueError(f'reshape requires dimensions >= -1, got {shape}')
    return shape


class Reshape(function_node.FunctionNode):
    """Reshapes an input array without copying."""

    def __init__(self, shape):
        self.shape = _normalize_shape(shape)
        self._known = 1
        for s in self.shape:
            if s >= 0:
                self._known *= s
        self._has_unknown = -1 in self.shape

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        size = type_check.prod(x_type.shape)
        if self._has_unknown:
            # The product of the known dims must divide the total size (and
            # cannot be zero: the unknown dim would be undetermined).
            known = _checks.named(in_types, self._known, 'known_size')
            type_check.expect(known > 0, size % known == 0)
        else:
            type_check.expect(size == _checks.named(in_types, self._known, 'prod(shape)'))

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return x.reshape(self.shape),

    def backward(self, indexes, grad_outputs):
        return reshape(grad_outputs[0], self._in_shape),


def reshape(x, shape):
    """Reshapes an input variable without copying the data (when possible).

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        shape (tuple of int): New shape; one entry may be ``-1``, meaning
            whatever size makes the total number of elements match.

    Returns:
        ~chainer.Variable: Reshaped variable (``x`` itself, as a Variable,
        when the shape does not change).

    .. admonition:: Example

        >>> x = np.arange(6, dtype=np.float32)
        >>> F.reshape(x, (2, 3)).shape
        (2, 3)
        >>> F.reshape(x, (3, -1)).shape
        (3, 2)
    """
    if isinstance(shape, int) and not isinstance(shape, bool):
        shape = (shape,)
    if x.shape == tuple(shape):
        return chainer.as_variable(x)
    return Reshape(shape).apply((x,))[0]
