"""Broadcasting: ``broadcast`` several inputs together, ``broadcast_to`` a shape."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


class Broadcast(function_node.FunctionNode):
    """Broadcasts all inputs to their common shape."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, inputs):
        self._xshapes = [x.shape for x in inputs]
        xp = backend.get_array_module(*inputs)
        return tuple(xp.broadcast_arrays(*inputs))

    def backward(self, indexes, grad_outputs):
        ret = []
        for i in indexes:
            gy = grad_outputs[i]
            ret.append(None if gy is None
                       else chainer.functions.sum_to(gy, self._xshapes[i]))
        return tuple(ret)


def broadcast(*args):
    """Broadcasts the given variables to a common shape.

    Args:
        args (~chainer.Variable or N-dimensional array): Inputs whose shapes
            are compatible under NumPy's broadcasting rules.

    Returns:
        ~chainer.Variable or tuple of ~chainer.Variable: The broadcast inputs
        (a single Variable when one input is given).

    .. admonition:: Example

        >>> x = np.zeros((2, 1), np.float32)
        >>> y = np.zeros((3,), np.float32)
        >>> bx, by = F.broadcast(x, y)
        >>> bx.shape, by.shape
        ((2, 3), (2, 3))
    """
    if len(args) == 1:
        return chainer.as_variable(args[0])
    return Broadcast().apply(args)


class BroadcastTo(function_node.FunctionNode):
    """Broadcasts an input to the given shape."""

    def __init__(self, shape):
        if not isinstance(shape, (tuple, list)) or not all(_checks.is_int(s) for s in shape):
            raise TypeError('broadcast_to: shape must be a tuple of int, '
                            f'got {type(shape).__name__} {shape!r}')
        self._shape = tuple(int(s) for s in shape)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        shape = _checks._value(in_types[0].shape)
        target = self._shape
        if len(shape) > len(target):
            expect, actual = 'x.ndim <= len(shape)', f'{len(shape)} > {len(target)}'
        else:
            for i in range(-1, -len(shape) - 1, -1):
                if shape[i] != target[i] and shape[i] != 1:
                    # (Chainer's words: it calls the input in_type[0] here)
                    expect = (f'in_type[0].shape[{i}] == {target[i]} or '
                              f'in_type[0].shape[{i}] == 1')
                    actual = f'in_type[0].shape: {shape}'
                    break
            else:
                return
        raise type_check.InvalidType(
            expect, actual, f'Expect: {expect}\nActual: {actual}\n'
            f'broadcast_to: x of shape {shape} cannot be broadcast to shape {target}')

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        return xp.broadcast_to(x, self._shape),

    def backward(self, indexes, grad_outputs):
        return chainer.functions.sum_to(grad_outputs[0], self._in_shape),


def broadcast_to(x, shape):
    """Broadcasts a variable to the given shape.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        shape (tuple of int): Target shape; ``x.shape`` must broadcast to it.

    Returns:
        ~chainer.Variable: A read-only view of ``x`` broadcast to ``shape``
        (``x`` itself, as a Variable, when the shape already matches).

    .. admonition:: Example

        >>> x = np.arange(3, dtype=np.float32)
        >>> F.broadcast_to(x, (2, 3)).array
        array([[0., 1., 2.],
               [0., 1., 2.]], dtype=float32)
    """
    if _checks.is_int(shape):
        shape = (shape,)
    try:
        x_shape = x.shape
    except AttributeError:
        raise _checks.not_an_array('broadcast_to', 'x', x) from None
    if isinstance(shape, (tuple, list)) and x_shape == tuple(shape):
        return chainer.as_variable(x)
    return BroadcastTo(shape).apply((x,))[0]
