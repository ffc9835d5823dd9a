"""Sparse matrices in COO format for :func:`chainer.functions.sparse_matmul`.

A :class:`CooMatrix` stores the entries of one matrix (1-D ``data``, ``row``,
``col``) or of a batch of matrices of one shape (2-D arrays, one row per
matrix). Slots whose row and column index are both ``-1`` are padding: they
let the matrices of a batch have different numbers of entries, and
:func:`to_coo` adds them when asked for a fixed size with ``ldnz``.
"""
import numpy

import chainer
from chainer import backend


def _to_numpy(x):
    if isinstance(x, numpy.ndarray):
        return x
    from chainer.backends import cuda
    return cuda.to_cpu(x)


class CooMatrix:
    """A sparse matrix (or a batch of them) in COO format.

    Args:
        data (N-dimensional array or ~chainer.Variable): The stored entries,
            usually the nonzero elements: shape ``(nnz,)``, or
            ``(batch, nnz)`` for a batch. A Variable is kept as it is, so
            gradients flow back to whatever computed it.
        row (N-dimensional array): Row index of each entry (same shape as
            ``data``; ``-1`` marks padding).
        col (N-dimensional array): Column index of each entry (same shape as
            ``data``; ``-1`` marks padding).
        shape (tuple of int): ``(rows, cols)`` of the dense matrix.
        order ('C', 'F', 'other' or None): ``'C'`` promises that entries are
            sorted by row (then column), ``'F'`` by column (then row),
            ``'other'`` promises nothing. ``None`` (the default) finds out with
            :func:`get_order`. Functions may use it as a hint.
        requires_grad (bool): Whether ``data`` (a :class:`~chainer.Variable`)
            receives a gradient in backprop.

    Attributes:
        data (~chainer.Variable): The stored entries.
        row (N-dimensional array): Row indices.
        col (N-dimensional array): Column indices.
        shape (tuple of int): Shape of one dense matrix.
        order (str): ``'C'``, ``'F'`` or ``'other'``.

    .. seealso:: :func:`to_coo` builds a COO matrix from a dense array.
    """

    def __init__(self, data, row, col, shape, order=None, requires_grad=False):
        if not 1 <= data.ndim <= 2:
            raise ValueError(f'ndim of data must be 1 or 2, got {data.ndim}')
        if not data.ndim == row.ndim == col.ndim:
            raise ValueError(
                f'ndim of data, row and col must be the same, got {data.ndim}, {row.ndim} '
                f'and {col.ndim}')
        if not data.shape == row.shape == col.shape:
            raise ValueError(
                f'shape of data, row and col must be the same, got {data.shape}, '
                f'{row.shape} and {col.shape}')
        if len(shape) != 2:
            raise ValueError(f'length of shape must be 2, got {shape}')
        if not (shape[0] > 0 and shape[1] > 0):
            raise ValueError(f'numbers in shape must be greater than 0, got {shape}')
        if order not in ('C', 'F', 'other', None):
            raise ValueError(f"order must be 'C', 'F', 'other' or None, got {order!r}")
        if isinstance(data, chainer.Variable):
            # Keeps the graph: the entries may be computed by other functions.
            self.data = data
        else:
            self.data = chainer.Variable(data, requires_grad=requires_grad)
        self.row = row
        self.col = col
        self.shape = tuple(shape)
        self.order = get_order(row, col) if order is None else order

    def to_dense(self):
        """Returns the dense form of this matrix (or batch) as an array.

        Returns:
            N-dimensional array: Shape ``shape``, or ``(batch,) + shape``.
            Entries at the same position add up; padding is ignored.
        """
        data = self.data.array
        xp = backend.get_array_module(data)
        valid = (self.row >= 0) & (self.col >= 0)
        if data.ndim == 1:
            out = xp.zeros(self.shape, data.dtype)
            index = (self.row[valid], self.col[valid])
        else:
            out = xp.zeros((data.shape[0],) + self.shape, data.dtype)
            batch = xp.broadcast_to(xp.arange(data.shape[0])[:, None], data.shape)
            index = (batch[valid], self.row[valid], self.col[valid])
        if xp is numpy:
            numpy.add.at(out, index, data[valid])
        else:
            import cupyx
            cupyx.scatter_add(out, index, data[valid])
        return out


def to_coo(x, ldnz=None, requires_grad=False):
    """Converts a dense matrix (or a batch of them) to COO format.

    Args:
        x (N-dimensional array): A matrix (2-D) or a batch of matrices (3-D).
        ldnz (int): Minimum number of slots per matrix. The arrays get
            ``max(nnz, ldnz)`` slots, where ``nnz`` is the (largest) number of
            nonzero elements; unused slots are padding.
        requires_grad (bool): Whether ``data`` receives a gradient in
            backprop.

    Returns:
        ~chainer.utils.CooMatrix: The nonzero entries of ``x`` in row-major
        ('C') order, with int32 indices.

    .. admonition:: Example

        >>> dense = np.array([[0, 2, 0], [-1, 0, 0]], np.float32)
        >>> x = chainer.utils.to_coo(dense)
        >>> x.data
        variable([ 2., -1.])
        >>> x.row, x.col
        (array([0, 1], dtype=int32), array([1, 0], dtype=int32))
        >>> x.shape
        (2, 3)
    """
    x = chainer.as_array(x)
    xp = backend.get_array_module(x)
    if x.ndim == 2:
        rows, cols = xp.nonzero(x)
        size = max(len(rows), ldnz or 0)
        data = xp.zeros(size, x.dtype)
        row = xp.full(size, -1, numpy.int32)
        col = xp.full(size, -1, numpy.int32)
        n = len(rows)
        data[:n] = x[rows, cols]
        row[:n] = rows
        col[:n] = cols
    elif x.ndim == 3:
        batches, rows, cols = xp.nonzero(x)
        counts = xp.bincount(batches, minlength=x.shape[0])
        n_max = int(counts.max()) if counts.size else 0
        size = max(n_max, ldnz or 0)
        # nonzero() lists entries batch by batch, so an entry's slot is its
        # index minus the index of its batch's first entry.
        starts = xp.cumsum(counts) - counts
        slots = xp.arange(len(batches)) - starts[batches]
        data = xp.zeros((x.shape[0], size), x.dtype)
        row = xp.full((x.shape[0], size), -1, numpy.int32)
        col = xp.full((x.shape[0], size), -1, numpy.int32)
        data[batches, slots] = x[batches, rows, cols]
        row[batches, slots] = rows
        col[batches, slots] = cols
    else:
        raise ValueError(f'ndim of x must be 2 or 3, got {x.ndim}')
    return CooMatrix(data, row, col, x.shape[-2:], order='C', requires_grad=requires_grad)


def _is_sorted(major, minor):
    """Whether the valid (major, minor) pairs of each row are in lexicographic order."""
    major = major.reshape(-1, major.shape[-1]).astype(numpy.int64)
    minor = minor.reshape(-1, minor.shape[-1]).astype(numpy.int64)
    valid = (major >= 0) & (minor >= 0)
    key = major * (int(minor.max(initial=0)) + 1) + minor
    # Compare each valid key with the largest valid key before it in its row.
    filled = numpy.where(valid, key, -1)
    running = numpy.maximum.accumulate(filled, axis=1)
    ok = key[:, 1:] >= running[:, :-1]
    return bool(numpy.all(ok | ~valid[:, 1:]))


def get_order(row, col):
    """Tells whether COO indices are sorted in row-major or column-major order.

    Args:
        row (N-dimensional array): Row indices (``-1`` marks padding).
        col (N-dimensional array): Column indices (``-1`` marks padding).

    Returns:
        str: ``'C'`` when the entries are sorted by row (and by column within
        a row), ``'F'`` when sorted by column (and by row within a column),
        ``'other'`` otherwise. Batched (2-D) indices must be sorted in every
        row of the batch.

    Raises:
        ValueError: If ``row`` and ``col`` differ in shape, or only one of
            them marks a slot as padding.
    """
    if row.shape != col.shape:
        raise ValueError(
            f'shape of row and col must be the same, got {row.shape} and {col.shape}')
    row = _to_numpy(row)
    col = _to_numpy(col)
    if numpy.any((row < 0) != (col < 0)):
        raise ValueError('invalid index combination of row and col: padding slots must have '
                         'both indices negative')
    if row.size == 0 or row.shape[-1] <= 1:
        return 'C'
    if _is_sorted(row, col):
        return 'C'
    if _is_sorted(col, row):
        return 'F'
    return 'other'
