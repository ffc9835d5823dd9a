"""Embedding lookup: row ``x`` of a matrix ``W`` for each integer of ``x``."""
import numpy

import chainer
from chainer import _errors
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _masked_ids(xp, x, ignore_label):
    # Ids to gather with (ignored ones replaced by 0), and the mask of ignored ones.
    if ignore_label is None:
        return x, None
    mask = x == ignore_label
    return xp.where(mask, 0, x), mask


def _add_rows(gW, ids, rows):
    """``gW[ids[k]] += rows[k]`` for every k, repeated ids adding up (NumPy arrays).

    ``numpy.add.at`` adds row by row; sorting the ids (stably) and summing each run of equal
    ids with ``add.reduceat`` is several times faster on large batches (its sums may round
    differently on long runs; float16 runs are summed in float32, more accurately).
    """
    if len(ids) == 0:
        return
    ids = ids.astype(numpy.intp, copy=False)
    if ids.min() < 0:   # -1 and len(gW) - 1 name the same row
        ids = ids % len(gW)
    order = numpy.argsort(ids, kind='stable')
    ids = ids[order]
    starts = numpy.flatnonzero(numpy.concatenate(([True], ids[1:] != ids[:-1])))
    gW[ids[starts]] = numpy.add.reduceat(rows[order], starts, axis=0)


class EmbedIDFunction(function_node.FunctionNode):
    """Gathers rows of ``W`` (ignored ids give zero rows)."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        x_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'i',
        )
        type_check.expect(
            w_type.dtype.kind == 'f',
            w_type.ndim == 2,
        )

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, W = inputs
        self._w_shape = W.shape
        xp = backend.get_array_module(*inputs)
        if chainer.is_debug():
            valid = (0 <= x) & (x < len(W))
            if self.ignore_label is not None:
                valid |= x == self.ignore_label
            if not valid.all():
                raise ValueError(f'EmbedID: each id in x must satisfy 0 <= x < len(W) = '
                                 f'{len(W)} (or equal ignore_label={self.ignore_label}), got '
                                 f'{x[~valid][:5].tolist()}')
        ids, mask = _masked_ids(xp, x, self.ignore_label)
        try:
            y = W[ids]
        except IndexError as e:
            # (NumPy's error, as in Chainer 7.8.1, which reads W out of bounds)
            _errors.add_to_message(e, f'embed_id: every id in x must satisfy 0 <= id < len(W) '
                                      f'= {len(W)} (or be ignore_label={self.ignore_label})')
            raise
        if mask is not None:
            y[mask] = 0
        return y,

    def backward(self, indexes, grad_outputs):
        x = self.get_retained_inputs()[0]
        gW, = EmbedIDGrad(self._w_shape, self.ignore_label).apply((x, grad_outputs[0]))
        return None, gW


class EmbedIDGrad(function_node.FunctionNode):
    """Gradient of :class:`EmbedIDFunction` with respect to ``W``: rows of ``gy``
    summed into the rows they were gathered from."""

    def __init__(self, w_shape, ignore_label=None):
        self.w_shape = w_shape
        self.ignore_label = ignore_label

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, gy = inputs
        xp = backend.get_array_module(*inputs)
        gW = xp.zeros(self.w_shape, dtype=gy.dtype)
        ids, mask = _masked_ids(xp, x, self.ignore_label)
        gy = gy.reshape(-1, self.w_shape[1])
        ids = ids.ravel()
        if mask is not None:
            keep = ~mask.ravel()
            ids, gy = ids[keep], gy[keep]
        if xp is numpy:
            _add_rows(gW, ids, gy)
        else:
            import cupyx
            cupyx.scatter_add(gW, ids, gy)
        return gW,

    def backward(self, indexes, grads):
        x = self.get_retained_inputs()[0]
        ret = [None] * 2
        if 1 in indexes:
            ret[1] = embed_id(x, grads[0], self.ignore_label)
        return ret


def embed_id(x, W, ignore_label=None):
    """Embedding: :math:`y_{i...} = W_{x_{i...}}`, a row of ``W`` per id of ``x``.

    Args:
        x (~chainer.Variable or N-dimensional array): Integer ids, each in
            ``[0, len(W))`` (or equal to ``ignore_label``).
        W (~chainer.Variable or N-dimensional array): Matrix of shape
            ``(n_ids, n_units)``.
        ignore_label (int or None): Ids equal to it give zero vectors (and no
            gradient).

    Returns:
        ~chainer.Variable: Output of shape ``x.shape + (n_units,)``.

    .. admonition:: Example

        >>> W = np.array([[0, 0], [1, 2], [3, 4]], np.float32)
        >>> F.embed_id(np.array([2, 0, 1], np.int32), W).array
        array([[3., 4.],
               [0., 0.],
               [1., 2.]], dtype=float32)
    """
    return EmbedIDFunction(ignore_label=ignore_label).apply((x, W))[0]
