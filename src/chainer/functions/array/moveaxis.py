"""Move axes of a variable to new positions."""
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


def _as_axes(axes, name):
    if isinstance(axes, list):
        axes = tuple(axes)
    axes = _checks.axis_arg('moveaxis', axes, name, tuple_=True, bool_ok=True)
    return (axes,) if isinstance(axes, int) else axes


class Moveaxis(function_node.FunctionNode):
    """Moves the ``source`` axes to the ``destination`` positions."""

    def __init__(self, source, destination):
        self.source = _as_axes(source, 'source')
        self.destination = _as_axes(destination, 'destination')

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        for name in ('source', 'destination'):
            for axis in getattr(self, name):
                _checks.expect_axis(x_type, axis, func='moveaxis', name=f'{name} entry',
                                    neg='gt')
        if len(self.source) != len(self.destination):
            raise ValueError(
                'moveaxis: source and destination must have the same number of axes, '
                f'got source={self.source} and destination={self.destination}')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.moveaxis(x, self.source, self.destination),

    def backward(self, indexes, grad_outputs):
        return Moveaxis(self.destination, self.source).apply(grad_outputs)


def moveaxis(x, source, destination):
    """Moves axes of a variable to new positions; the other axes keep their order.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        source (int or tuple of int): The axes to move, as positions in ``x``.
        destination (int or tuple of int): Their positions in the output
            (one per entry of ``source``).

    Returns:
        ~chainer.Variable: A view of ``x`` with the axes moved.

    .. admonition:: Example

        >>> x = np.empty((2, 3, 4, 5), np.float32)
        >>> F.moveaxis(x, 0, -1).shape
        (3, 4, 5, 2)
        >>> F.moveaxis(x, (0, 1), (-1, -2)).shape
        (4, 5, 3, 2)
    """
    return Moveaxis(source, destination).apply((x,))[0]
