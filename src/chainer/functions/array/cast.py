"""Change the dtype of a variable."""
import numpy

import chainer
from chainer import function_node
from chainer.utils import type_check


class Cast(function_node.FunctionNode):
    """Casts the input to another dtype."""

    def __init__(self, typ):
        self.type = typ

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def forward(self, x):
        self._in_type = x[0].dtype
        return x[0].astype(self.type, copy=False),

    def backward(self, indexes, g):
        if numpy.dtype(self._in_type).kind != 'f':
            return None,
        return cast(g[0], self._in_type),


def cast(x, typ):
    """Casts an input variable to the given type.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        typ (str or numpy.dtype): Target dtype.

    Returns:
        ~chainer.Variable: Variable holding the cast array.
    """
    if x.dtype == typ and not chainer.config.enable_backprop:
        return chainer.as_variable(x)
    return Cast(typ).apply((x,))[0]
