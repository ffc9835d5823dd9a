"""Reshape without copying."""
import chainer
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


def _normalize_shape(shape):
    if _checks.is_int(shape):
        shape = (shape,)
    if not isinstance(shape, (tuple, list)) or not all(_checks.is_int(s) for s in shape):
        raise TypeError('reshape: shape must be an int or a tuple of int, '
                        f'got {type(shape).__name__} {shape!r}')
    shape = tuple(int(s) for s in shape)
    if sum(1 for s in shape if s < 0) > 1:
        raise ValueError(f'reshape: shape can have only one unknown dimension (-1), got {shape}')
    if any(s < -1 for s in shape):
        raise ValueError(f'reshape: shape entries must be >= -1, got {shape}')
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
        x_shape = _checks._value(x_type.shape)
        size = 1
        for n in x_shape:
            size *= n
        if self._has_unknown:
            if self._known == 0:
                # ValueError, as NumPy (and so Chainer) raises.
                raise ValueError(f'reshape: the -1 in shape {self.shape} cannot be inferred '
                                 'when another entry is 0')
            ok = size % self._known == 0
            # (Chainer's words, and its Actual: the remainder and 0)
            expect = f'prod(x.shape) % known_size(={self._known}) == 0'
            actual = f'{size % self._known} != 0'
        else:
            ok = size == self._known
            expect = f'prod(x.shape) == prod({self.shape})'
            actual = f'{size} != {self._known}'
        if not ok:
            raise type_check.InvalidType(
                expect, actual,
                f'Expect: {expect}\nActual: {actual}\n'
                f'reshape: x of shape {x_shape} ({size} elements) cannot be reshaped to '
                f'{self.shape}')

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
    shape = _normalize_shape(shape)
    try:
        x_shape = x.shape
    except AttributeError:
        raise _checks.not_an_array('reshape', 'x', x) from None
    if x_shape == shape:
        return chainer.as_variable(x)
    return Reshape(shape).apply((x,))[0]
