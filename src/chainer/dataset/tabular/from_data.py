"""from_data: a TabularDataset from arrays, lists and functions of the index."""
import numpy

from chainer.dataset.tabular import _join
from chainer.dataset.tabular import tabular_dataset


class _Array(tabular_dataset.TabularDataset):
    # One column held in an array or a list (indexing keeps its type).

    def __init__(self, key, data):
        self._key = key
        self._data = data

    def __len__(self):
        return len(self._data)

    @property
    def keys(self):
        return self._key,

    @property
    def mode(self):
        return None

    def get_examples(self, indices, key_indices):
        if key_indices is not None and len(key_indices) == 0:
            return ()
        data = self._data
        if indices is not None:
            if isinstance(indices, slice) or isinstance(data, numpy.ndarray):
                data = data[indices]
            else:
                data = [data[i] for i in indices]
        if key_indices is None:
            return data,
        return tuple(data for _ in key_indices)


class _Index(tabular_dataset.TabularDataset):
    # Columns computed from the row index by a function.

    def __init__(self, keys, func, size):
        self._unary = not isinstance(keys, tuple)
        self._keys = (keys,) if self._unary else keys
        self._func = func
        self._size = size
        self._mode = None if self._unary else Ellipsis

    def __len__(self):
        return self._size

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        if self._mode is Ellipsis:
            self._mode = dict if isinstance(self._func(0), dict) else tuple
        return self._mode

    def get_examples(self, indices, key_indices):
        rows = range(self._size)
        if indices is None:
            pass
        elif isinstance(indices, slice):
            rows = rows[indices]
        else:
            rows = [rows[i] for i in indices]
        if key_indices is None:
            key_indices = range(len(self._keys))
        columns = [[] for _ in key_indices]
        for i in rows:
            out = self._func(i)
            if self._unary:
                out = out,
            elif isinstance(out, dict):
                out = tuple(out[k] for k in self._keys)
            for column, k in zip(columns, key_indices):
                column.append(out[k])
        return tuple(columns)


def _is_keys(x):
    return isinstance(x, str) or (
        isinstance(x, tuple) and all(isinstance(k, str) for k in x))


def _column(data, size):
    # A unary spec: data, (key, data) or (keys, callable).
    if isinstance(data, tuple) and len(data) == 2 and _is_keys(data[0]):
        key, data = data
    else:
        key = None
    if callable(data) and not isinstance(data, (numpy.ndarray, list)):
        if key is None:
            raise ValueError('from_data: a callable column needs a key: pass '
                             "('key', callable) or (('k1', 'k2'), callable)")
        if size is None:
            raise ValueError('from_data: the length of a callable column is unknown: '
                             'pass size=... or an array column beside it')
        return _Index(key, data, size)
    if key is None:
        # A key unique to this column (Chainer names unnamed columns this way too).
        key = f'_{id(data)}'
    if size is not None and len(data) != size:
        raise ValueError(f'from_data: a column has length {len(data)}, expected {size}')
    return _Array(key, data)


def _size_of(specs, size):
    if size is not None:
        return size
    for spec in specs:
        if isinstance(spec, tuple) and len(spec) == 2 and _is_keys(spec[0]):
            spec = spec[1]
        if isinstance(spec, (numpy.ndarray, list)):
            return len(spec)
    return None


def from_data(data, *, size=None):
    """Makes a :class:`~chainer.dataset.TabularDataset` from columns.

    A column is an array or a list, ``(key, array_or_list)``, ``(key, f)`` or
    ``((key1, key2...), f)``, where ``f(i)`` returns the value (or a tuple or
    dict of values) of row ``i``. ``data`` is one column (the dataset has mode
    ``None``), a tuple of columns (mode ``tuple``) or a dict from keys to
    arrays, lists or functions (mode ``dict``).

    Args:
        data: The column(s).
        size (int): Number of rows; required when no column is an array or list.

    Returns:
        TabularDataset: The dataset.

    .. admonition:: Example

        >>> ds = chainer.dataset.tabular.from_data(
        ...     (('x', numpy.arange(3)), ('y', lambda i: i * i)))
        >>> ds.keys, ds[2]
        (('x', 'y'), (2, 4))
    """
    if isinstance(data, dict):
        specs = [(k, v) for k, v in data.items()]
        size = _size_of(specs, size)
        return _join._Join(*[_column(spec, size) for spec in specs]).asdict()
    if isinstance(data, tuple) and not (len(data) == 2 and _is_keys(data[0])):
        size = _size_of(data, size)
        return _join._Join(*[_column(spec, size) for spec in data])
    return _column(data, _size_of([data], size))
