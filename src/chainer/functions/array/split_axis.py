"""Split an array into several along one axis (the inverse of ``concat``)."""
import collections.abc
import itertools

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check
from chainer.functions import _static_arrays


class SplitAxis(function_node.FunctionNode):
    """Splits an array along an axis into equal sections or at given indices."""

    def __init__(self, indices_or_sections, axis):
        ios = indices_or_sections
        if _checks.is_int(ios):
            ios = int(ios)
        elif (isinstance(ios, collections.abc.Iterable) and not isinstance(ios, str)
              and all(_checks.is_int(i) for i in ios)):
            ios = tuple(int(i) for i in ios)
            if chainer.is_debug() and any(p > n for p, n in itertools.pairwise(ios)):
                raise ValueError(f'split_axis: indices_or_sections must be sorted, got {ios}')
        else:
            raise TypeError('split_axis: indices_or_sections must be an int or a 1-D sequence '
                            f'of int, got {type(ios).__name__} {ios!r}')
        self.indices_or_sections = ios
        self.axis = _checks.axis_arg('split_axis', axis, bool_ok=True)

    # Chainer's attributes: the split points (a list) or the number of sections (an int).
    indices = property(lambda self: list(self.indices_or_sections) if isinstance(
        self.indices_or_sections, tuple) else None)
    sections = property(lambda self: self.indices_or_sections if isinstance(
        self.indices_or_sections, int) else None)

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 1)
        x_type, = in_types
        axis = self.axis
        _checks.expect_axis(x_type, axis, func='split_axis', xname='in_types[0]')
        ios = self.indices_or_sections
        if isinstance(ios, tuple):
            if ios:
                max_index = _checks.named(in_types, ios[-1], 'max_index')
                type_check.expect(x_type.shape[axis] >= max_index)
            return
        size = _checks._value(x_type.shape)[axis]
        if ios <= 0:
            raise type_check.InvalidType(
                'sections > 0', f'{ios} <= 0',
                f'Expect: sections > 0\nActual: sections = {ios}\nsplit_axis: x.shape[{axis}] '
                f'= {size} cannot be split into {ios} sections')
        if size % ios:
            # (Chainer's words: the axis as given)
            expect, actual = f'in_types[0].shape[{axis}] % sections == 0', f'{size % ios} != 0'
            raise type_check.InvalidType(
                expect, actual,
                f'Expect: {expect}\nActual: {actual}\nsplit_axis: x.shape[{axis}] = {size} '
                f'cannot be split into {ios} equal sections')

    def forward(self, inputs):
        x, = inputs
        self._axis = self.axis % x.ndim
        self._dtype = x.dtype
        ys = backend.get_array_module(x).split(x, self.indices_or_sections, self._axis)
        self._shapes = [y.shape for y in ys]
        return tuple(ys)

    def backward(self, indexes, grad_outputs):
        if len(grad_outputs) == 1:
            return grad_outputs
        like = next(g for g in grad_outputs if g is not None).array
        # Outputs that got no gradient (unused pieces) contribute zeros.
        gys = [_static_arrays.full(like, shape, self._dtype, 0) if g is None else g
               for g, shape in zip(grad_outputs, self._shapes)]
        return chainer.functions.concat(gys, self._axis),


def split_axis(x, indices_or_sections, axis, force_tuple=True):
    """Splits an array into several along an axis.

    Args:
        x (~chainer.Variable or N-dimensional array): Array to split.
        indices_or_sections (int or 1-D array): An integer ``N`` splits ``x``
            into ``N`` equal pieces (``x.shape[axis]`` must be divisible by
            it); a sorted sequence of integers gives the positions where ``x``
            is cut, as in :func:`numpy.split`.
        axis (int): Axis to split along.
        force_tuple (bool): If ``True`` (the default) a tuple is returned even
            when there is a single piece; if ``False`` a single piece is
            returned as a Variable.

    Returns:
        tuple of ~chainer.Variable or ~chainer.Variable: The pieces, views of
        ``x`` in order along ``axis``.

    .. admonition:: Example

        >>> x = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> a, b = F.split_axis(x, [1], axis=1)
        >>> a.shape, b.shape
        ((2, 1), (2, 2))
    """
    ys = SplitAxis(indices_or_sections, axis).apply((x,))
    if force_tuple or len(ys) != 1:
        return ys
    return ys[0]
