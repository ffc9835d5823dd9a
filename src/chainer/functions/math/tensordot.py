"""Tensor dot product over chosen axes."""
import numbers

import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _as_axes(axes, name):
    if isinstance(axes, numbers.Integral):
        return (int(axes),)
    if isinstance(axes, (tuple, list)) and all(isinstance(a, numbers.Integral) for a in axes):
        return tuple(int(a) for a in axes)
    raise TypeError(f'tensordot: the axes of {name} must be an int or a sequence of int, '
                    f'got {axes!r}')


def _normalize_axes(axes, a_ndim, b_ndim):
    """Returns the contracted axes ``(a_axes, b_axes)`` as tuples of non-negative ints.

    Chainer's error types: TypeError for an axes of the wrong type, ValueError
    for axes that do not fit the inputs.
    """
    if isinstance(axes, numbers.Integral):
        n = int(axes)
        if n < 0:
            raise ValueError(f'tensordot: axes must be a non-negative int, got {n}')
        if n > a_ndim or n > b_ndim:
            raise ValueError(
                f'dimension of input tensors must be greater equal to dot-axes count ({n}) '
                f'(tensordot: axes={n} pairs more axes than a ({a_ndim} dimensions) or '
                f'b ({b_ndim} dimensions) has)')
        return tuple(range(a_ndim - n, a_ndim)), tuple(range(n))
    if not isinstance(axes, (tuple, list, str)):
        raise TypeError('tensordot: axes must be an int or a pair of sequences of int, '
                        f'got {type(axes).__name__} {axes!r}')
    if len(axes) != 2 or isinstance(axes, str):
        raise ValueError('tensordot: axes must be an int or a pair (a_axes, b_axes), '
                         f'got {axes!r}')
    a_axes, b_axes = (_as_axes(x, name) for x, name in zip(axes, 'ab'))
    if len(a_axes) != len(b_axes):
        raise ValueError('tensordot: axes must pair as many axes of a as of b, '
                         f'got {a_axes} and {b_axes}')
    for axes_, ndim, name in ((a_axes, a_ndim, 'a'), (b_axes, b_ndim, 'b')):
        for ax in axes_:
            if not -ndim <= ax < ndim:
                raise ValueError(f'tensordot: axis {ax} of axes is out of range for {name} '
                                 f'with {ndim} dimensions')
        if len({ax % ndim for ax in axes_}) != len(axes_):
            raise ValueError(f'tensordot: the axes of {name} must not repeat, got {axes_}')
    return tuple(ax % a_ndim for ax in a_axes), tuple(ax % b_ndim for ax in b_axes)


class TensorDot(function_node.FunctionNode):
    """Sum of products over paired axes of ``a`` and ``b``.

    The output holds the free axes of ``a`` followed by those of ``b``; when
    ``out_axes`` is given the output is then transposed by it.
    """

    def __init__(self, axes=2, out_axes=None, dtype=None):
        self.axes = axes
        self.out_axes = out_axes
        self.dtype = dtype

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',
        )
        a_ndim = type_check.eval(a_type.ndim)
        b_ndim = type_check.eval(b_type.ndim)
        a_axes, b_axes = _normalize_axes(self.axes, a_ndim, b_ndim)
        a_shape = type_check.eval(a_type.shape)
        b_shape = type_check.eval(b_type.shape)
        for i, j in zip(a_axes, b_axes):
            if a_shape[i] != b_shape[j]:
                # ValueError, as NumPy (and so Chainer) raises.
                raise ValueError(
                    f'tensordot: paired axes must have the same size, got a.shape[{i}] = '
                    f'{a_shape[i]} and b.shape[{j}] = {b_shape[j]} (a.shape={a_shape}, '
                    f'b.shape={b_shape}, axes={self.axes!r})')

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        xp = backend.get_array_module(a, b)
        self._axes = axes = _normalize_axes(self.axes, a.ndim, b.ndim)
        dtype = numpy.result_type(a.dtype, b.dtype) if self.dtype is None else self.dtype
        y = xp.tensordot(a, b, axes)
        if self.out_axes is not None:
            y = y.transpose(self.out_axes)
        return xp.asarray(y, dtype=dtype),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gy, = grad_outputs
        if self.out_axes is not None:
            gy = chainer.functions.transpose(gy, numpy.argsort(self.out_axes))
        a_axes, b_axes = self._axes
        a_free = [i for i in range(a.ndim) if i not in a_axes]
        b_free = [i for i in range(b.ndim) if i not in b_axes]
        na = len(a_free)
        gy_a = tuple(range(na))
        gy_b = tuple(range(na, gy.ndim))
        ret = []
        if 0 in indexes:
            # gy . b over b's free axes leaves a_free, then b's contracted axes in
            # increasing order, i.e. the matching axes of a.
            order = a_free + [a_axes[k] for k in numpy.argsort(b_axes)]
            ret.append(TensorDot((gy_b, b_free), tuple(numpy.argsort(order)), a.dtype)
                       .apply((gy, b))[0])
        if 1 in indexes:
            # a . gy over a's free axes leaves a's contracted axes in increasing
            # order (i.e. the matching axes of b), then b_free.
            order = [b_axes[k] for k in numpy.argsort(a_axes)] + b_free
            ret.append(TensorDot((a_free, gy_a), tuple(numpy.argsort(order)), b.dtype)
                       .apply((a, gy))[0])
        return tuple(ret)


def tensordot(a, b, axes=2):
    """Tensor dot product of two arrays along the given axes.

    Args:
        a (~chainer.Variable or N-dimensional array): First operand (float).
        b (~chainer.Variable or N-dimensional array): Second operand (float).
        axes (int or pair of sequences of int): An int ``n`` pairs the last
            ``n`` axes of ``a`` with the first ``n`` axes of ``b``; a pair
            ``(a_axes, b_axes)`` lists the axes to pair explicitly.

    Returns:
        ~chainer.Variable: The sum of products over the paired axes; its axes
        are the remaining axes of ``a`` followed by those of ``b``.

    .. admonition:: Example

        >>> a = np.ones((5, 3, 2), np.float32)
        >>> b = np.ones((3, 2, 4), np.float32)
        >>> F.tensordot(a, b, axes=2).shape
        (5, 4)
        >>> F.tensordot(a, b, axes=([1], [0])).shape
        (5, 2, 2, 4)
    """
    return TensorDot(axes).apply((a, b))[0]
