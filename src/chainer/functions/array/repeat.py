"""Repeat each element of a variable."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


def _normalize_repeats(repeats):
    # Bools count as 0/1, as in Chainer (True repeats each element once).
    if isinstance(repeats, (int, numpy.integer)):
        repeats = (int(repeats),)
    elif isinstance(repeats, tuple) and all(
            isinstance(r, (int, numpy.integer)) for r in repeats):
        repeats = tuple(int(r) for r in repeats)
    else:
        raise TypeError(f'repeat: repeats must be an int or a tuple of int, got {repeats!r}')
    if any(r < 0 for r in repeats):
        raise ValueError(f'repeat requires non-negative repeats, got {repeats}')
    return repeats


class Repeat(function_node.FunctionNode):
    """Repeats each element ``repeats`` times along ``axis`` (the flattened input if None)."""

    def __init__(self, repeats, axis=None):
        self.repeats = _normalize_repeats(repeats)
        self.axis = _checks.axis_arg('repeat', axis, none=True)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        # The error types are NumPy's, which Chainer let through.
        if self.axis is not None:
            _checks.expect_axis(x_type, self.axis, func='repeat', error=_checks.AxisError)
        if len(self.repeats) != 1:
            shape = _checks._value(x_type.shape)
            if self.axis is None:
                n, what = _checks._value(x_type.size), 'x.size'
            else:
                n, what = shape[self.axis], f'x.shape[{self.axis}]'
            if n != len(self.repeats):
                raise ValueError(
                    f'repeat: repeats must be one int or one per element along the axis '
                    f'({what} = {n}), got {len(self.repeats)}: {self.repeats} '
                    f'(x.shape={shape})')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        repeats = self.repeats[0] if len(self.repeats) == 1 else self.repeats
        return xp.repeat(x, repeats, self.axis),

    def backward(self, indexes, grad_outputs):
        return RepeatGrad(self.repeats, self.axis, self._in_shape).apply(grad_outputs)


class RepeatGrad(function_node.FunctionNode):
    """Sums each group of repeated copies back into one element."""

    def __init__(self, repeats, axis, in_shape):
        self.repeats = repeats
        self.axis = axis
        self.in_shape = in_shape

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        if self.axis is None:
            axis = 0
            shape = (int(numpy.prod(self.in_shape)),)
            gy = gy.reshape(-1)
        else:
            axis = self.axis % len(self.in_shape)
            shape = self.in_shape
        n = shape[axis]
        dtype = numpy.float32 if gy.dtype == numpy.float16 else None
        if len(self.repeats) == 1:
            # Equal groups: split the axis into (n, r) and sum the copies.
            r = self.repeats[0]
            split = gy.shape[:axis] + (n, r) + gy.shape[axis + 1:]
            gx = gy.reshape(split).sum(axis=axis + 1, dtype=dtype)
        elif xp is numpy:
            gx = self._sum_groups_cpu(gy, axis, n, dtype)
        else:
            import cupyx

            moved = xp.moveaxis(gy, axis, 0)
            acc = xp.zeros((n,) + moved.shape[1:], dtype or gy.dtype)
            owner = xp.repeat(xp.arange(n), self.repeats)  # cupy.repeat takes a tuple
            cupyx.scatter_add(acc, owner, moved)
            gx = xp.moveaxis(acc, 0, axis)
        return gx.astype(inputs[0].dtype, copy=False).reshape(self.in_shape),

    def _sum_groups_cpu(self, gy, axis, n, dtype):
        repeats = numpy.asarray(self.repeats)
        starts = numpy.concatenate(([0], numpy.cumsum(repeats)[:-1]))
        shape = list(gy.shape)
        shape[axis] = n
        gx = numpy.zeros(shape, dtype or gy.dtype)
        nonzero = repeats > 0
        if nonzero.any():
            # reduceat sums [starts[i], starts[i + 1]); groups of zero repeats
            # would get an element of the next group, so they are skipped and
            # stay zero.
            src = gy.astype(dtype, copy=False) if dtype else gy
            sums = numpy.add.reduceat(src, starts[nonzero], axis=axis)
            index = [slice(None)] * gy.ndim
            index[axis] = nonzero
            gx[tuple(index)] = sums
        return gx

    def backward(self, indexes, grad_outputs):
        return Repeat(self.repeats, self.axis).apply(grad_outputs)


def repeat(x, repeats, axis=None):
    """Repeats each element of a variable, like :func:`numpy.repeat`.

    Args:
        x (~chainer.Variable or N-dimensional array): Input.
        repeats (int or tuple of int): Number of copies of each element: one
            count for all, or one per element along ``axis`` (per element of
            the flattened input when ``axis`` is None).
        axis (int): The axis along which to repeat; ``None`` flattens the
            input first and returns a 1-D output.

    Returns:
        ~chainer.Variable: The repeated variable.

    .. admonition:: Example

        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.repeat(x, 2).array
        array([1., 1., 2., 2., 3., 3., 4., 4.], dtype=float32)
        >>> F.repeat(x, (1, 2), axis=0).array
        array([[1., 2.],
               [3., 4.],
               [3., 4.]], dtype=float32)
    """
    _checks.refuse_none('repeat', 'x', x)
    return Repeat(repeats, axis).apply((x,))[0]
