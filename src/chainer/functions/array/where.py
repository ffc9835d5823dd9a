"""Elementwise choice between two inputs by a boolean mask."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer import variable
from chainer.functions.array import _checks
from chainer.utils import type_check


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
        zero = backend.get_array_module(g).zeros((), g.dtype)
        ret = []
        for i in indexes:
            # The gradient flows to x where the condition holds, to y elsewhere.
            pair = (g, zero) if i == 0 else (zero, g)
            gi, = Where(self.condition).apply(pair)
            ret.append(chainer.functions.sum_to(gi, self.inputs[i].shape))
        return tuple(ret)


def _as_operand(value, other):
    # Python and NumPy scalars take the dtype of the other operand, as NumPy
    # arrays would not promote them either.
    if isinstance(value, variable.Variable) or variable._is_array(value):
        return value
    if isinstance(other, variable.Variable):
        other = other.array
    if not variable._is_array(other):
        return numpy.asarray(value)
    return backend.get_array_module(other).asarray(value, other.dtype)


def where(condition, x, y):
    """Chooses elements from ``x`` or ``y`` depending on ``condition``.

    .. math:: z_i = \\begin{cases} x_i & \\text{if } c_i \\\\ y_i & \\text{otherwise} \\end{cases}

    Args:
        condition (~chainer.Variable or N-dimensional array): Boolean array.
        x (~chainer.Variable or N-dimensional array): Values taken where
            ``condition`` is ``True``.
        y (~chainer.Variable or N-dimensional array): Values taken where
            ``condition`` is ``False``; same dtype as ``x``.

    The three shapes may differ if they broadcast together; the result has the
    broadcast shape and the gradients are summed back to each input's shape.

    Returns:
        ~chainer.Variable: The chosen values.

    .. admonition:: Example

        >>> cond = np.array([[True, False], [False, True]])
        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> y = np.zeros((2, 2), np.float32)
        >>> F.where(cond, x, y).array
        array([[1., 0.],
               [0., 4.]], dtype=float32)
    """
    if isinstance(condition, variable.Variable):
        condition = condition.array
    x, y = _as_operand(x, y), _as_operand(y, x)
    if not variable._is_array(condition):
        condition = backend.get_array_module(x).asarray(condition)
    return Where(condition).apply((x, y))[0]
