"""Transpose a batch of variable-length sequences into a sequence of batches."""
import numpy

from chainer import backend
from chainer import function_node
from chainer import variable
from chainer.functions import _checks
from chainer.functions.math._elementwise import as_dtype as _as_dtype
from chainer.utils import type_check


def _batch_sizes(lengths):
    # lengths are sorted in decreasing order; n[t] counts sequences longer than t.
    ascending = lengths[::-1]
    return len(lengths) - numpy.searchsorted(ascending, numpy.arange(lengths[0]), 'right')


class TransposeSequence(function_node.FunctionNode):
    """Turns sequences ``xs[j][t]`` (sorted by decreasing length) into batches ``ys[t][j]``.

    Args:
        length (int): The number of outputs (time steps): at least the longest sequence's
            length; steps beyond it are empty. ``0`` gives no output at all.
    """

    def __init__(self, length):
        self._length = length

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() >= 1)
        first = in_types[0]
        type_check.expect(first.ndim >= 1)
        # (Chainer's conditions, in its words; the sequences' dtypes may differ: the result
        # takes the first one's, as in Chainer 7.8.1)
        for i in range(1, len(in_types)):
            type_check.expect(
                first.shape[1:] == in_types[i].shape[1:],
                in_types[i - 1].shape[0] >= in_types[i].shape[0],
            )

    def forward(self, xs):
        self._unit = xs[0].shape[1:]
        self._dtype = xs[0].dtype
        self._dtypes = [x.dtype for x in xs]
        lengths = numpy.array([len(x) for x in xs], dtype=numpy.intp)
        self._n_inputs = len(xs)
        if lengths[0] == 0 or self._length == 0:
            return ()
        if self._length < lengths[0]:
            raise IndexError(f'tuple index out of range (TransposeSequence: length '
                             f'{self._length} is shorter than the longest sequence, '
                             f'{lengths[0]})')
        xp = backend.get_array_module(*xs)
        n = _batch_sizes(lengths)
        pad = self._length - len(n)     # (empty steps past the longest sequence)
        self._batch_sizes = numpy.concatenate((n, numpy.zeros(pad, n.dtype)))
        # Index of ys[t][j] in the concatenation of xs: offset of sequence j plus t.
        # Built in O(total) with repeats instead of a padded (T, B) mask.
        total = int(n.sum())
        ends = numpy.cumsum(n)
        t_idx = numpy.repeat(numpy.arange(len(n)), n)
        j_idx = numpy.arange(total) - numpy.repeat(ends - n, n)
        offsets = numpy.concatenate(([0], numpy.cumsum(lengths)[:-1]))
        perm = offsets[j_idx] + t_idx
        x = xp.concatenate([x.astype(self._dtype, copy=False) for x in xs], axis=0)
        y = x.take(perm if xp is numpy else xp.asarray(perm), axis=0)
        ys = tuple(xp.split(y, ends[:-1].tolist(), axis=0))
        return ys + (xp.zeros((0,) + self._unit, self._dtype),) * pad

    def backward(self, indexes, grad_outputs):
        xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
        # Time steps that got no gradient contribute zeros.
        gys = [xp.zeros((int(n),) + self._unit, self._dtype) if g is None else g
               for n, g in zip(self._batch_sizes, grad_outputs)]
        # (empty sequences at the end of xs get empty gradients: the length pads them)
        gxs = TransposeSequence(self._n_inputs).apply(gys)
        # each gradient in its own sequence's dtype
        return tuple(_as_dtype(g, dt) if isinstance(g, variable.Variable) else
                     g.astype(dt, copy=False) for g, dt in zip(gxs, self._dtypes))


def transpose_sequence(xs):
    """Transposes a list of variable-length sequences.

    Given sequences sorted by decreasing length, the ``t``-th output stacks the
    ``t``-th elements of every sequence that is longer than ``t``. For example
    ``[(0, 1, 2, 3), (4, 5), (6,)]`` becomes ``[(0, 4, 6), (1, 5), (2,), (3,)]``.
    This converts a mini-batch of sequences into a sequence of mini-batches
    (as recurrent networks consume them) and back: the operation is its own
    inverse.

    Args:
        xs (list of ~chainer.Variable or N-dimensional array): Sequences of
            shape ``(length, ...)``, sorted by decreasing length, with equal
            trailing shapes; other dtypes are cast to the first one's.

    Returns:
        tuple of ~chainer.Variable: ``len(xs[0])`` arrays; the ``t``-th has
        shape ``(n_t, ...)`` where ``n_t`` is the number of sequences longer
        than ``t``.

    .. admonition:: Example

        >>> xs = [np.array([1, 1, 1]), np.array([2, 2]), np.array([3])]
        >>> [y.array for y in F.transpose_sequence(xs)]
        [array([1, 2, 3]), array([1, 2]), array([1])]
    """
    _checks.refuse_none('transpose_sequence', 'xs', xs,
                        'a list or tuple of Variables or N-dimensional arrays')
    if len(xs) == 0:
        return ()
    # (anything but a sequence of length >= 1 is left for the node's own checks to refuse)
    x0 = getattr(xs[0], 'array', xs[0])
    length = x0.shape[0] if getattr(x0, 'ndim', 0) else 0
    return TransposeSequence(length).apply(tuple(xs))
