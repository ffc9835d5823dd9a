from chainer.dataset.tabular import tabular_dataset


def _call(func, mode, data):
    # Calls func with an example (or batch) unpacked according to `mode`.
    if mode is tuple:
        return func(*data)
    if mode is dict:
        return func(**data)
    return func(data)


class _TransformBase(tabular_dataset.TabularDataset):

    def __init__(self, dataset, keys, func):
        self._dataset = dataset
        self._unary = not isinstance(keys, tuple)
        self._keys = (keys,) if self._unary else keys
        self._func = func
        self._mode = None if self._unary else Ellipsis  # Ellipsis: not known yet

    def __len__(self):
        return len(self._dataset)

    @property
    def keys(self):
        return self._keys

    @property
    def mode(self):
        if self._mode is Ellipsis:
            # The mode is the type the function returns, seen on the first row.
            self._columns_of([0])
        return self._mode

    def _record_mode(self, out):
        if self._mode is Ellipsis:
            self._mode = dict if isinstance(out, dict) else tuple

    def _as_columns(self, out):
        if self._unary:
            return (out,)
        if isinstance(out, dict):
            return tuple(out[k] for k in self._keys)
        return tuple(out)

    def get_examples(self, indices, key_indices):
        columns = self._columns_of(indices)
        if key_indices is None:
            return columns
        return tuple(columns[k] for k in key_indices)


class _Transform(_TransformBase):
    # Applies the function to each example.

    def _columns_of(self, indices):
        inputs = self._dataset.get_examples(indices, None)
        mode, keys = self._dataset.mode, self._dataset.keys
        columns = [[] for _ in self._keys]
        for row in zip(*inputs):
            if mode is dict:
                row = dict(zip(keys, row))
            elif mode is None:
                row = row[0]
            out = _call(self._func, mode, row)
            self._record_mode(out)
            for column, value in zip(columns, self._as_columns(out)):
                column.append(value)
        return tuple(columns)


class _TransformBatch(_TransformBase):
    # Applies the function to whole columns at once.

    def _columns_of(self, indices):
        inputs = self._dataset.get_examples(indices, None)
        mode = self._dataset.mode
        if mode is dict:
            inputs = dict(zip(self._dataset.keys, inputs))
        elif mode is None:
            inputs = inputs[0]
        out = _call(self._func, mode, inputs)
        self._record_mode(out)
        return self._as_columns(out)
