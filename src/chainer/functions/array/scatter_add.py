"""Out-of-place scatter addition: ``y = a.copy(); y[slices] += b`` (repeats add up)."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer import variable
from chainer.functions import _checks
from chainer.utils import type_check


def _normalize(slices):
    # A list of plain ints is an integer index along the first axis (as NumPy
    # reads it); any other list is a tuple of indexes.
    if isinstance(slices, list):
        if all(isinstance(s, (int, numpy.integer)) and not isinstance(s, bool)
               for s in slices):
            slices = (numpy.asarray(slices, dtype=numpy.intp),)
        else:
            slices = tuple(slices)
    elif not isinstance(slices, tuple):
        slices = (slices,)
    out = []
    for s in slices:
        if isinstance(s, variable.Variable):
            s = s.array
        elif isinstance(s, list):
            s = numpy.asarray(s)
        out.append(s)
    if sum(1 for s in out if s is Ellipsis) > 1:
        raise ValueError('Only one Ellipsis is allowed')
    return tuple(out)


def _is_advanced(s):
    return variable._is_array(s) or isinstance(s, (bool, numpy.bool_))


class ScatterAdd(function_node.FunctionNode):
    """Adds ``b`` into ``a[slices]`` of a copy of ``a``."""

    def __init__(self, slices):
        self.slices = _normalize(slices)
        self._advanced = any(_is_advanced(s) for s in self.slices)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        # Every index except None and Ellipsis consumes one axis of a
        # (a boolean array consumes as many as it has dimensions).
        n_axes = 0
        for s in self.slices:
            if s is None or s is Ellipsis:
                continue
            n_axes += s.ndim if variable._is_array(s) and s.dtype == numpy.bool_ else 1
        # b may have another dtype: the result keeps a's (b is cast), as in Chainer 7.8.1
        type_check.expect(
            a_type.ndim >= _checks.named(in_types, n_axes, 'len(slices)'),
        )

    def _slices_on(self, xp):
        if xp is numpy or not self._advanced:
            return self.slices
        return tuple(xp.asarray(s) if isinstance(s, numpy.ndarray) else s for s in self.slices)

    def forward(self, inputs):
        a, b = inputs
        xp = backend.get_array_module(a, b)
        slices = self._slices_on(xp)
        self._b_dtype = b.dtype
        # the sums are taken in the promoted dtype and the result cast to a's
        dtype = numpy.promote_types(a.dtype, b.dtype)
        y = a.astype(dtype, copy=True)
        target_shape = y[slices].shape
        if target_shape != b.shape:
            raise ValueError(
                'Chainer does not support automatic broadcasting of variables. '
                f'(scatter_add requires b.shape == a[slices].shape, got b.shape={b.shape} '
                f'and a[slices].shape={target_shape})')
        if not self._advanced:
            y[slices] += b  # basic indexing never hits an element twice
        elif xp is numpy:
            numpy.add.at(y, slices, b)
        else:
            import cupyx
            cupyx.scatter_add(y, slices, b)
        return y.astype(a.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        g, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(g)
        if 1 in indexes:
            gb = chainer.functions.get_item(g, self.slices)
            if gb.dtype != self._b_dtype:
                gb = chainer.functions.cast(gb, self._b_dtype)
            ret.append(gb)
        return tuple(ret)


def scatter_add(a, slices, b):
    """Adds values to selected elements of a copy of an array.

    The result equals ``a`` with ``b`` added to ``a[slices]``; ``a`` itself is
    left unchanged. Unlike ``y[slices] += b`` in NumPy, an element selected
    several times by an integer-array index receives every addition (as
    :func:`numpy.add.at` does).

    Args:
        a (~chainer.Variable or N-dimensional array): Base array.
        slices: An int, slice, Ellipsis, None, integer or boolean array, or a
            tuple of them; the same indexes as :func:`~chainer.functions.get_item`.
        b (~chainer.Variable or N-dimensional array): Values to add; its shape
            must equal ``a[slices].shape`` (no broadcasting); the result has
            ``a``'s dtype.

    Returns:
        ~chainer.Variable: The sum, shaped like ``a``.

    .. admonition:: Example

        >>> a = np.zeros((2, 3), np.float32)
        >>> b = np.ones((2, 2), np.float32)
        >>> F.scatter_add(a, (slice(None), [0, 0]), b).array
        array([[2., 0., 0.],
               [2., 0., 0.]], dtype=float32)
    """
    return ScatterAdd(slices).apply((a, b))[0]
