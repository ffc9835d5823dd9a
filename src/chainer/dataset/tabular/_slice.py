import numbers

import numpy

from chainer.dataset.tabular import tabular_dataset


def _as_rows(indices, n):
    # Normalizes row indices of a dataset of length n: a range (from a slice or
    # None) or a list of non-negative ints (from ints or a boolean mask).
    if indices is None:
        return range(n)
    if isinstance(indices, slice):
        return range(n)[indices]
    if isinstance(indices, numpy.ndarray):
        indices = indices.tolist()
    if not isinstance(indices, (list, tuple, range)):
        raise TypeError(f'tabular slice: row indices must be a slice or a list of ints or '
                        f'booleans, got {type(indices).__name__}')
    if isinstance(indices, range):
        return indices
    if len(indices) > 0 and all(isinstance(i, (bool, numpy.bool_)) for i in indices):
        if len(indices) != n:
            raise ValueError(f'The number of booleans is different from the length of '
                             f'dataset: got {len(indices)} booleans for {n} rows')
        return [i for i, b in enumerate(indices) if b]
    rows = []
    for i in indices:
        j = int(i)
        if j < -n or j >= n:
            raise IndexError(f'index {j} is out of bounds for a dataset of length {n}')
        rows.append(j + n if j < 0 else j)
    return rows


def _as_argument(rows):
    # What get_examples receives for normalized rows: a slice for a range
    # (a negative stop means "past the start", i.e. None), else the list.
    if isinstance(rows, range):
        stop = rows.stop if rows.stop >= 0 else None
        return slice(rows.start, stop, rows.step)
    return rows


def _select(rows, indices):
    # Rows `indices` (None, a slice or a list, as get_examples gets them) of `rows`.
    if indices is None:
        return rows
    if isinstance(indices, slice):
        return rows[indices]
    return [rows[i] for i in indices]


def _key_index(keys, key):
    if isinstance(key, str):
        try:
            return keys.index(key)
        except ValueError:
            raise KeyError(f'{key} does not exists') from None
    if isinstance(key, numbers.Integral):
        k = int(key)
        if k < -len(keys) or k >= len(keys):
            raise IndexError(f'index {k} is out of bounds for keys with size {len(keys)}')
        return k % len(keys)
    raise TypeError(f'tabular slice: a key must be a str or an int, got {type(key).__name__}')


class _Slice(tabular_dataset.TabularDataset):
    # Selected rows (and columns) of a dataset, read through its get_examples.

    def __init__(self, dataset, indices, keys):
        self._dataset = dataset
        self._rows = _as_rows(indices, len(dataset))
        if keys is None:
            self._key_indices = None
            self._mode = dataset.mode
        else:
            if isinstance(keys, tuple):
                self._mode = dataset.mode or tuple
            else:
                keys = keys,
                self._mode = None
            self._key_indices = tuple(_key_index(dataset.keys, k) for k in keys)

    def __len__(self):
        return len(self._rows)

    @property
    def keys(self):
        keys = self._dataset.keys
        if self._key_indices is None:
            return keys
        return tuple(keys[k] for k in self._key_indices)

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        rows = _select(self._rows, indices)
        if key_indices is not None and self._key_indices is not None:
            key_indices = tuple(self._key_indices[k] for k in key_indices)
        elif key_indices is None:
            key_indices = self._key_indices
        return self._dataset.get_examples(_as_argument(rows), key_indices)

    def convert(self, data):
        return self._dataset.convert(data)


class _SliceHelper:
    # `dataset.slice[...]`.

    def __init__(self, dataset):
        self._dataset = dataset

    def __getitem__(self, args):
        if isinstance(args, tuple):
            indices, keys = args
        else:
            indices, keys = args, None
        return _Slice(self._dataset, indices, keys)
