"""Indexing: ``x[slices]`` with basic and advanced (integer array, boolean mask) indexes."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer import variable
from chainer.utils import type_check

_BASIC = (slice, int, numpy.integer)
_EllipsisType = type(Ellipsis)


def _to_index(s):
    """Converts one index entry to int/slice/None/Ellipsis/array, or raises TypeError."""
    if s is None or s is Ellipsis or isinstance(s, slice):
        return s
    if isinstance(s, (bool, numpy.bool_)):
        # A scalar bool is a 0-d mask (it adds an axis), not the int 0 or 1.
        return numpy.asarray(s)
    if isinstance(s, (int, numpy.integer)):
        return s
    if isinstance(s, variable.Variable):
        s = s.array
    elif isinstance(s, (list, tuple)):
        s = numpy.asarray(s)
    if variable._is_array(s) and s.dtype.kind in 'biu':
        return s
    raise TypeError(
        f'get_item: invalid index of type {type(s).__name__}'
        + (f' with dtype {s.dtype}' if hasattr(s, 'dtype') else '')
        + '; expected int, slice, Ellipsis, None, an integer or boolean array, '
        'or a tuple of them')


def _normalize(slices):
    """Returns the index as a tuple of int/slice/None/Ellipsis/array entries."""
    if isinstance(slices, list):
        # As in Chainer (and NumPy before 1.23): a list of ints is one integer
        # array index; any other list is read as a tuple of indexes.
        if all(isinstance(s, (int, numpy.integer, bool, numpy.bool_)) for s in slices):
            return (numpy.asarray(slices) if slices else numpy.empty(0, numpy.intp),)
        slices = tuple(slices)
    elif not isinstance(slices, tuple):
        slices = (slices,)
    if sum(1 for s in slices if s is Ellipsis) > 1:
        # Chainer refuses this up front (with ValueError, not NumPy's IndexError).
        raise ValueError('Only one Ellipsis is allowed')
    return tuple([_to_index(s) for s in slices])


def _is_array(s):
    return not (s is None or s is Ellipsis or isinstance(s, _BASIC))


def _indexed_ndim(slices):
    # How many axes of x the index consumes (a boolean mask consumes one per
    # dimension; None and Ellipsis consume none).
    n = 0
    for s in slices:
        if s is None or s is Ellipsis:
            continue
        n += s.ndim if _is_array(s) and s.dtype.kind == 'b' else 1
    return n


def _on(xp, slices):
    """Moves index arrays to the array module of the indexed array."""
    if xp is numpy:
        return tuple(backend.CpuDevice().send(s) if _is_array(s) and not isinstance(
            s, numpy.ndarray) else s for s in slices)
    return tuple(xp.asarray(s) if isinstance(s, numpy.ndarray) else s for s in slices)


class GetItem(function_node.FunctionNode):
    """Extracts ``x[slices]``."""

    def __init__(self, slices):
        self.slices = _normalize(slices)
        arrays = [s for s in self.slices if _is_array(s)]
        self._advanced = bool(arrays)
        # Boolean masks never select a position twice, so their gradient can
        # be assigned instead of accumulated (much faster than add.at).
        self._unique = all(s.dtype.kind == 'b' for s in arrays)
        self._ndim = _indexed_ndim(self.slices)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].ndim >= _checks.named(
            in_types, self._ndim, 'number of indexed axes'))

    def forward(self, xs):
        x, = xs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        slices = _on(xp, self.slices) if self._advanced else self.slices
        y = x[slices]
        if xp is numpy and not isinstance(y, numpy.ndarray):
            y = numpy.asarray(y)  # all-int indexes give a NumPy scalar
        return y,

    def backward(self, indexes, grad_outputs):
        return GetItemGrad(self, self._in_shape).apply(grad_outputs)


class GetItemGrad(function_node.FunctionNode):
    """Scatters the gradient of ``x[slices]`` back into an array shaped like ``x``."""

    def __init__(self, get_item, in_shape):
        self.get_item = get_item
        self._in_shape = in_shape

    def forward(self, inputs):
        gy, = inputs
        f = self.get_item
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, gy.dtype)
        slices = _on(xp, f.slices) if f._advanced else f.slices
        if f._unique:
            gx[slices] = gy
        elif xp is numpy:
            # Repeated positions must add up: a plain assignment keeps one.
            numpy.add.at(gx, slices, gy)
        else:
            import cupyx

            cupyx.scatter_add(gx, slices, gy)
        return gx,

    def backward(self, indexes, grad_outputs):
        return GetItem(self.get_item.slices).apply(grad_outputs)


def get_item(x, slices):
    """Extracts elements with NumPy's indexing rules.

    Basic indexes (ints, slices, ``None``, ``Ellipsis``) give a view; integer
    arrays and boolean masks (NumPy or CuPy arrays, lists, or Variables)
    select elements by position. As in Chainer, a list of ints is one integer
    array index, while any other list is read as a tuple of indexes.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        slices: An int, slice, Ellipsis, None, integer array, boolean array, or
            a tuple of them.

    Returns:
        ~chainer.Variable: ``x[slices]``. Gradients of elements selected more
        than once add up.

    .. admonition:: Example

        >>> x = np.arange(12, dtype=np.float32).reshape(3, 4)
        >>> F.get_item(x, (slice(None), 1)).array
        array([1., 5., 9.], dtype=float32)
        >>> F.get_item(x, [0, 0, 2]).shape
        (3, 4)
        >>> F.get_item(x, x > 9).array
        array([10., 11.], dtype=float32)
    """
    return GetItem(slices).apply((x,))[0]


def install_variable_get_item():
    variable.Variable.__getitem__ = lambda self, slices: get_item(self, slices)
