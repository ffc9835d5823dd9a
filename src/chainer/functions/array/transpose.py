"""Permute the axes of a variable."""
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


class Transpose(function_node.FunctionNode):
    """Permutes the dimensions of an input array."""

    def __init__(self, axes=None):
        if axes is not None:
            given = axes
            if _checks.is_int(axes):
                axes = (axes,)
            elif isinstance(axes, str) or not hasattr(axes, '__iter__'):
                axes = (None,)      # refused just below
            axes = tuple(axes)
            if not all(_checks.is_int(a) for a in axes):
                raise TypeError('transpose: axes must be None or a sequence of int, '
                                f'got {type(given).__name__} {given!r}')
            axes = tuple(int(a) for a in axes)
        self.axes = axes

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        if self.axes is not None:
            x_type = in_types[0]
            ndim = _checks._value(x_type.ndim)
            # The error types are NumPy's, which Chainer let through.
            if ndim != len(self.axes):
                raise ValueError(
                    f'transpose: axes must name each of the {ndim} axes of x once, got '
                    f'{self.axes} for x of shape {_checks._value(x_type.shape)}')
            for axis in self.axes:
                _checks.expect_axis(x_type, axis, func='transpose', name='axes entry',
                                    error=_checks.AxisError)
            if len({a % ndim for a in self.axes}) != ndim:
                raise ValueError(f'transpose: axes must not repeat an axis, got {self.axes}')

    def forward(self, inputs):
        x, = inputs
        return x.transpose(self.axes),

    def backward(self, indexes, grad_outputs):
        axes = self.axes
        if axes is None:
            # Reversing the axes is its own inverse.
            return Transpose().apply(grad_outputs)
        n = len(axes)
        inverse = [0] * n
        for i, a in enumerate(axes):
            inverse[a % n] = i
        return Transpose(inverse).apply(grad_outputs)


def transpose(x, axes=None):
    """Permutes the dimensions of an input variable.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        axes (tuple of int): ``axes[i]`` is the input axis that becomes
            output axis ``i``; ``None`` reverses the axes.

    Returns:
        ~chainer.Variable: A view of ``x`` with permuted axes.

    .. admonition:: Example

        >>> x = np.zeros((2, 3, 4), np.float32)
        >>> F.transpose(x).shape
        (4, 3, 2)
        >>> F.transpose(x, (1, 0, 2)).shape
        (3, 2, 4)
    """
    return Transpose(axes).apply((x,))[0]
