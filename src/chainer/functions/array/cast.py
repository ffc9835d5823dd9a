"""Change the dtype of a variable."""
import numpy

import chainer
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


class Cast(function_node.FunctionNode):
    """Casts the input to another dtype."""

    def __init__(self, typ):
        self.type = typ

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        self._in_type = x.dtype
        return x.astype(self.type, copy=False),

    def backward(self, indexes, grad_outputs):
        # A gradient only flows back to floating-point inputs.
        if self._in_type.kind != 'f':
            return None,
        return cast(grad_outputs[0], self._in_type),


def cast(x, typ):
    """Casts an input variable to the given type.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        typ (str or numpy.dtype): Target dtype.

    Returns:
        ~chainer.Variable: Variable holding the cast array. When ``x`` already
        has dtype ``typ`` and backprop is disabled, ``x`` itself is returned
        (wrapped in a Variable if it is an array).

    .. admonition:: Example

        >>> x = np.arange(3, dtype=np.float32)
        >>> y = F.cast(x, np.float16)
        >>> y.dtype
        dtype('float16')
    """
    try:
        x_dtype = x.dtype
    except AttributeError:
        raise _checks.not_an_array('cast', 'x', x) from None
    if x_dtype == numpy.dtype(typ) and not chainer.config.enable_backprop:
        return chainer.as_variable(x)
    return Cast(typ).apply((x,))[0]
