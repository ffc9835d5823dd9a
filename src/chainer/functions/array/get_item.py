"""Indexing: ``x[slices]`` with basic and advanced (integer array, boolean mask) indexes."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer import variable
from chainer.utils import type_check


def _is_advanced(s):
    return not (s is None or s is Ellipsis or isinstance(s, (slice, int, numpy.integer)))


def _normalize(slices):
    """Turns the index into a tuple whose advanced parts are arrays (or raises TypeError)."""
    if isinstance(slices, list):
        # A list index means advanced indexing along the first axis, as in NumPy.
        slices = (numpy.asarray(slices),) if not any(
            isinstance(s, (slice, type(None), type(Ellipsis))) for s in slices) else tuple(slices)
    elif not isinstance(slices, tuple):
        slices = (slices,)
    out = []
    for s in slices:
        if isinstance(s, variable.Variable):
            s = s.array
        if isinstance(s, list):
            s = numpy.asarray(s)
        if isinstance(s, (bool, numpy.bool_)):
            s = numpy.asarray(s)
        if not (s is None or s is Ellipsis or isinstance(s, (slice, int, numpy.integer))
                or variable._is_array(s)):
            raise TypeError(f'get_item: invalid index of type {type(s).__name__}; expected '
                            'int, slice, Ellipsis, None, an integer/boolean array or a '
                            'tuple of them')
        out.append(s)
    return tuple(out)


class GetItem(function_node.FunctionNode):
    """Extracts ``x[slices]``."""

    def __init__(self, slices):
        self.slices = _normalize(slices)
        self._advanced = any(_is_advanced(s) for s in self.slices)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))

    def _slices_on(self, xp):
        if xp is numpy or not self._advanced:
            return self.slices
        return tuple(xp.asarray(s) if isinstance(s, numpy.ndarray) else s
                     for s in self.slices)

    def forward(self, xs):
        x, = xs
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        xp = backend.get_array_module(x)
        return xp.asarray(x[self._slices_on(xp)]),

    def backward(self, indexes, gy):
        return GetItemGrad(self.slices, self._advanced, self._in_shape).apply(gy)


class GetItemGrad(function_node.FunctionNode):
    """Scatters the gradient of ``x[slices]`` back into an array shaped like ``x``."""

    def __init__(self, slices, advanced, in_shape):
        self.slices = slices
        self._advanced = advanced
        self._in_shape = in_shape

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._in_shape, gy.dtype)
        if not self._advanced:
            gx[self.slices] = gy
        elif xp is numpy:
            numpy.add.at(gx, self.slices, gy)
        else:
            import cupyx
            slices = tuple(xp.asarray(s) if isinstance(s, numpy.ndarray) else s
                           for s in self.slices)
            cupyx.scatter_add(gx, slices, gy)
        return gx,

    def backward(self, indexes, ggx):
        return GetItem(self.slices).apply(ggx)


def get_item(x, slices):
    """Extracts elements with NumPy's indexing rules.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        slices: An int, slice, Ellipsis, None, integer array, boolean array, or
            a tuple of them.

    Returns:
        ~chainer.Variable: ``x[slices]``. Gradients of repeated elements add up.

    .. admonition:: Example

        >>> x = np.arange(12, dtype=np.float32).reshape(3, 4)
        >>> F.get_item(x, (slice(None), 1)).array
        array([1., 5., 9.], dtype=float32)
    """
    return GetItem(slices).apply((x,))[0]


def install_variable_get_item():
    variable.Variable.__getitem__ = lambda self, slices: get_item(self, slices)
