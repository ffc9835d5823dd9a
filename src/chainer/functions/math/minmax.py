"""Reductions to the extreme value (``max``, ``min``) and its index (``argmax``, ``argmin``)."""
import numpy

import chainer
from chainer import _errors
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.math import sum as _sum
from chainer.utils import type_check
from chainer.functions import _static_arrays


def _empty_reduction(error, func, x, axis):
    # NumPy's ValueError for a reduction over no element (as in Chainer 7.8.1), naming the
    # function
    _errors.add_to_message(error, f'{func}: x of shape {x.shape} has no element to reduce '
                                  f'over (axis={axis})')


class SelectorBase(_sum._Reduction):
    """Shared body of Max and Min: subclasses name the array method to call."""

    _method = None

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        try:
            return xp.asarray(getattr(x, self._method)(axis=self.axis, keepdims=self.keepdims)),
        except ValueError as e:
            _empty_reduction(e, self._method, x, self.axis)
            raise

    def backward(self, indexes, grad_outputs):
        # NOTE: every input element equal to the selected value gets the whole
        # output gradient, so ties are not split: with two maxima both receive
        # gy (Chainer's convention). The mask is a constant, hence the second
        # derivative with respect to x is zero.
        x = self.inputs[0].data
        y = self.output_data[0]
        shape = x.shape
        mask, = _static_arrays.compute(_selected, x, y,
                                       shape=_sum._keepdims_shape(shape, self.axis))
        gy = _sum._expand_reduced(grad_outputs[0], shape, self.axis, self.keepdims)
        return chainer.functions.broadcast_to(gy, shape) * mask,


class Max(SelectorBase):
    """Maximum of array elements over the given axes."""

    _func = 'max'

    _method = 'max'


class Min(SelectorBase):
    """Minimum of array elements over the given axes."""

    _func = 'min'

    _method = 'min'


class IndexSelectorBase(function_node.FunctionNode):
    """Shared body of ArgMax and ArgMin; the output is an int32 index array."""

    _method = None

    def __init__(self, axis=None):
        self.axis = _checks.axis_arg(self._method, axis, none=True)

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 1)
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if self.axis is not None:
            _sum._check_axis((self.axis,), x_type, self._method, 'in_types[0]')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        try:
            y = getattr(x, self._method)(axis=self.axis)
        except ValueError as e:
            _empty_reduction(e, self._method, x, self.axis)
            raise
        return xp.asarray(y).astype(numpy.int32, copy=False),

    def backward(self, indexes, grad_outputs):
        # An index is piecewise constant in x: it has no gradient.
        return None,


class ArgMax(IndexSelectorBase):
    """Index of the maximum over an axis."""

    _method = 'argmax'


class ArgMin(IndexSelectorBase):
    """Index of the minimum over an axis."""

    _method = 'argmin'


def max(x, axis=None, keepdims=False):
    """Maximum of array elements over the given axes.

    Where several elements share the maximum, each of them receives the full
    output gradient in backprop.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        axis (None, int or tuple of int): Axes to reduce; ``None`` reduces all.
        keepdims (bool): Keep the reduced axes with length one.

    Returns:
        ~chainer.Variable: The maxima.

    .. admonition:: Example

        >>> x = np.array([[1, 5, 2], [4, 0, 3]], np.float32)
        >>> F.max(x, axis=1).array
        array([5., 4.], dtype=float32)
    """
    return Max(axis, keepdims).apply((x,))[0]


def min(x, axis=None, keepdims=False):
    """Minimum of array elements over the given axes.

    Where several elements share the minimum, each of them receives the full
    output gradient in backprop.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        axis (None, int or tuple of int): Axes to reduce; ``None`` reduces all.
        keepdims (bool): Keep the reduced axes with length one.

    Returns:
        ~chainer.Variable: The minima.

    .. admonition:: Example

        >>> x = np.array([[1, 5, 2], [4, 0, 3]], np.float32)
        >>> F.min(x, axis=0).array
        array([1., 0., 2.], dtype=float32)
    """
    return Min(axis, keepdims).apply((x,))[0]


def argmax(x, axis=None):
    """Index of the maximum over an axis (of the flattened array by default).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        axis (None or int): Axis to search; ``None`` searches the flattened
            array.

    Returns:
        ~chainer.Variable: int32 indices (first occurrence on ties). They
        carry no gradient.

    .. admonition:: Example

        >>> x = np.array([[1, 5, 2], [4, 0, 3]], np.float32)
        >>> F.argmax(x, axis=1).array
        array([1, 0], dtype=int32)
    """
    return ArgMax(axis).apply((x,))[0]


def argmin(x, axis=None):
    """Index of the minimum over an axis (of the flattened array by default).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        axis (None or int): Axis to search; ``None`` searches the flattened
            array.

    Returns:
        ~chainer.Variable: int32 indices (first occurrence on ties). They
        carry no gradient.

    .. admonition:: Example

        >>> x = np.array([[1, 5, 2], [4, 0, 3]], np.float32)
        >>> F.argmin(x).array
        array(4, dtype=int32)
    """
    return ArgMin(axis).apply((x,))[0]


def _selected(x, y, shape):
    return (x == y.reshape(shape)).astype(x.dtype)
