"""Clipping of values into an interval."""
from chainer import backend
from chainer import function_node
from chainer.functions.math import _elementwise
from chainer import utils
from chainer.functions import _static_arrays


class Clip(function_node.FunctionNode):
    """Clips values into ``[x_min, x_max]`` (either bound may be ``None``)."""

    def __init__(self, x_min, x_max):
        if x_min is None and x_max is None:
            raise ValueError('clip requires x_min or x_max (or both), got neither')
        # An empty interval is refused, equal bounds included (as Chainer does).
        if x_min is not None and x_max is not None and x_min >= x_max:
            raise ValueError(f'clip requires x_min < x_max, got x_min={x_min}, '
                             f'x_max={x_max}')
        self.x_min = x_min
        self.x_max = x_max

    def check_type_forward(self, in_types):
        _elementwise.check_float(in_types)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        return utils.force_array(xp.clip(x, self.x_min, self.x_max), x.dtype),

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0].array
        # The gradient passes where the input is inside the closed interval,
        # so it is 1 exactly at the bounds.
        inside, = _static_arrays.compute(_inside, x, x_min=self.x_min, x_max=self.x_max,
                                         dtype=grad_outputs[0].dtype)
        return grad_outputs[0] * inside,


def clip(x, x_min, x_max):
    """Clips (limits) the elements of ``x`` to the interval ``[x_min, x_max]``.

    Elements below ``x_min`` become ``x_min`` and elements above ``x_max``
    become ``x_max``. The gradient is 1 inside the interval, including its
    edges, and 0 outside.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        x_min (float): Lower bound (``None`` for no lower bound).
        x_max (float): Upper bound (``None`` for no upper bound).

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([-2., 0.5, 3.], np.float32)
        >>> F.clip(x, -1., 1.).array
        array([-1. ,  0.5,  1. ], dtype=float32)
    """
    return Clip(x_min, x_max).apply((x,))[0]


def _inside(x, x_min, x_max, dtype):
    # Where the gradient passes, as 0 and 1 in its dtype.
    inside = None
    if x_min is not None:
        inside = x >= x_min
    if x_max is not None:
        below = x <= x_max
        inside = below if inside is None else inside & below
    return inside.astype(dtype)
