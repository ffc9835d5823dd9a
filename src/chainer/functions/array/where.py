"""Elementwise choice between two inputs by a boolean mask."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer import variable
from chainer.functions import _checks
from chainer.utils import type_check
from chainer.functions import _static_arrays


class Where(function_node.FunctionNode):
    """Picks ``x`` where ``condition`` holds and ``y`` elsewhere (with broadcasting).

    The condition is a constant of the node, not an input: it gets no gradient.
    """

    def __init__(self, condition):
        self.condition = condition

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'y'))
        x_type, y_type = in_types
        condition = _checks.named(in_types, self.condition, 'condition')
        type_check.expect(
            condition.dtype == numpy.bool_,
            x_type.dtype == y_type.dtype,
        )
        type_check.expect_broadcast_shapes(condition.shape, x_type.shape, y_type.shape)

    def forward(self, inputs):
        x, y = inputs
        xp = backend.get_array_module(x, y)
        return xp.asarray(xp.where(self.condition, x, y)),

    def backward(self, indexes, grad_outputs):
        g, = grad_outputs
        zero = _static_arrays.full(g.array, (), g.dtype, 0)
        ret = []
        for i in indexes:
            # The gradient flows to x where the condition holds, to y elsewhere.
            pair = (g, zero) if i == 0 else (zero, g)
            gi, = Where(self.condition).apply(pair)
            ret.append(chainer.functions.sum_to(gi, self.inputs[i].shape))
        return tuple(ret)


def _as_operand(value, name, other):
    # Python and NumPy scalars take the dtype of the other operand, as NumPy
    # arrays would not promote them either. Anything else (None, lists) is
    # refused: Chainer requires arrays, and None would silently become NaN.
    if isinstance(value, variable.Variable) or variable._is_array(value):
        return value
    if not isinstance(value, (bool, int, float, numpy.generic)):
        pair = (value, other) if name == 'x' else (other, value)
        actual = ', '.join(str(type(getattr(v, 'array', v))) for v in pair)
        raise TypeError('incompatible array types are mixed in the forward input (Where).\n'
                        f'Actual: {actual}\n'
                        f'where: {name} must be a Variable, an array or a scalar, '
                        f'got {type(value).__name__}')
    if isinstance(other, variable.Variable):
        other = other.array
    if not variable._is_array(other):
        return numpy.asarray(value)
    return backend.get_array_module(other).asarray(value, other.dtype)


def where(condition, x, y):
    """Takes each element from ``x`` or ``y``, as a boolean mask says.

    .. math:: z_i = \\begin{cases} x_i & \\text{if } c_i \\\\ y_i & \\text{otherwise} \\end{cases}

    Args:
        condition (~chainer.Variable or N-dimensional array): Boolean mask;
            it gets no gradient.
        x (~chainer.Variable, N-dimensional array or scalar): Values taken
            where ``condition`` is ``True``.
        y (~chainer.Variable, N-dimensional array or scalar): Values taken
            where ``condition`` is ``False``; same dtype as ``x``. A scalar
            takes the dtype of the other operand.

    The three shapes may differ if they broadcast together; the result has the
    broadcast shape and the gradients are summed back to each input's shape.

    Returns:
        ~chainer.Variable: The chosen values.

    .. admonition:: Example

        >>> x = np.array([-2., 3., -1., 5.], np.float32)
        >>> F.where(x > 0, x, np.full(4, 10., np.float32)).array
        array([10.,  3., 10.,  5.], dtype=float32)
    """
    if isinstance(condition, variable.Variable):
        condition = condition.array
    if not variable._is_array(condition):
        expect = 'isinstance(condition, ndarray)'
        actual = f'type(condition) == {type(condition)}'
        # (Chainer raises this from Where's type check, hence its header)
        raise type_check.InvalidType(
            expect, actual,
            f'\nInvalid operation is performed in: Where (Forward)\n\nExpect: {expect}\n'
            f'Actual: {actual}\nwhere: condition must be a boolean array or Variable, got '
            f'{type(condition).__name__}')
    x, y = _as_operand(x, 'x', y), _as_operand(y, 'y', x)
    return Where(condition).apply((x, y))[0]
