"""Transpose a batch of variable-length sequences into a sequence of batches."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _batch_sizes(lengths):
    # lengths are sorted in decreasing order; n[t] counts sequences longer than t.
    ascending = lengths[::-1]
    return len(lengths) - numpy.searchsorted(ascending, numpy.arange(lengths[0]), 'right')


class TransposeSequence(function_node.FunctionNode):
    """Turns sequences ``xs[j][t]`` (sorted by decreasing length) into batches ``ys[t][j]``."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() >= 1)
        first = in_types[0]
        type_check.expect(first.ndim >= 1)
        # (Chainer's conditions, in its words; the sequences' dtypes may differ: the result
        # takes the first one's)
        for i in range(1, len(in_types)):
            type_check.expect(
                first.shape[1:] == in_types[i].shape[1:],
                in_types[i - 1].shape[0] >= in_types[i].shape[0],
            )

    def forward(self, xs):
        self._unit = xs[0].shape[1:]
        self._dtype = xs[0].dtype
        lengths = numpy.array([len(x) for x in xs], dtype=numpy.intp)
        self._n_inputs = len(xs)
        if lengths[0] == 0:
            return ()
        xp = backend.get_array_module(*xs)
        n = _batch_sizes(lengths)
        self._batch_sizes = n
        # Index of ys[t][j] in the concatenation of xs: offset of sequence j plus t.
        # Built in O(total) with repeats instead of a padded (T, B) mask.
        total = int(n.sum())
        ends = numpy.cumsum(n)
        t_idx = numpy.repeat(numpy.arange(len(n)), n)
        j_idx = numpy.arange(total) - numpy.repeat(ends - n, n)
        offsets = numpy.concatenate(([0], numpy.cumsum(lengths)[:-1]))
        perm = offsets[j_idx] + t_idx
        x = xp.concatenate(xs, axis=0).astype(self._dtype, copy=False)
        y = x.take(perm if xp is numpy else xp.asarray(perm), axis=0)
        return tuple(xp.split(y, ends[:-1].tolist(), axis=0))

    def backward(self, indexes, grad_outputs):
        xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
        # Time steps that got no gradient contribute zeros.
        gys = [xp.zeros((int(n),) + self._unit, self._dtype) if g is None else g
               for n, g in zip(self._batch_sizes, grad_outputs)]
        gxs = TransposeSequence().apply(gys)
        # Empty sequences at the end of xs have no counterpart in the outputs.
        missing = self._n_inputs - len(gxs)
        if missing:
            zero = xp.zeros((0,) + self._unit, self._dtype)
            gxs = gxs + (zero,) * missing
        return gxs


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
            dtypes and trailing shapes.

    Returns:
        tuple of ~chainer.Variable: ``len(xs[0])`` arrays; the ``t``-th has
        shape ``(n_t, ...)`` where ``n_t`` is the number of sequences longer
        than ``t``.

    .. admonition:: Example

        >>> xs = [np.array([1, 1, 1]), np.array([2, 2]), np.array([3])]
        >>> [y.array for y in F.transpose_sequence(xs)]
        [array([1, 2, 3]), array([1, 2]), array([1])]
    """
    if len(xs) == 0:
        return ()
    return TransposeSequence().apply(tuple(xs))
