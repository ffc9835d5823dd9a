from chainer.dataset.tabular import _slice
from chainer.dataset.tabular import tabular_dataset


class _Concat(tabular_dataset.TabularDataset):
    # Rows of several datasets one after another; each dataset is asked only for
    # the rows it holds, and the pieces are put back in the requested order.

    def __init__(self, *datasets):
        for dataset in datasets[1:]:
            if dataset.keys != datasets[0].keys:
                raise ValueError(
                    f'All datasets must have the same keys: {datasets[0].keys} and '
                    f'{dataset.keys} differ')
        self._datasets = datasets
        self._offsets = []
        offset = 0
        for dataset in datasets:
            self._offsets.append(offset)
            offset += len(dataset)
        self._len = offset

    def __len__(self):
        return self._len

    @property
    def keys(self):
        return self._datasets[0].keys

    @property
    def mode(self):
        return self._datasets[0].mode

    def get_examples(self, indices, key_indices):
        if not (indices is None or isinstance(indices, slice)):
            return self._from_list(indices, key_indices)
        n_cols = len(self.keys) if key_indices is None else len(key_indices)
        if indices is None:
            parts = [(dataset, None) for dataset in self._datasets]
        else:
            parts = self._slice_parts(_slice._as_rows(indices, self._len))
        if len(parts) == 1:
            dataset, local = parts[0]
            return dataset.get_examples(local, key_indices)
        columns = [[] for _ in range(n_cols)]
        for dataset, local in parts:
            for column, part in zip(columns, dataset.get_examples(local, key_indices)):
                column.extend(part)
        return tuple(columns)

    def _slice_parts(self, rows):
        # (dataset, local slice) for each dataset that the range of rows touches,
        # in the order the rows are visited.
        parts = []
        order = range(len(self._datasets))
        if rows.step < 0:
            order = reversed(order)
        for d in order:
            dataset, offset = self._datasets[d], self._offsets[d]
            n = len(dataset)
            local = [r - offset for r in (rows.start, rows.stop)]
            # Rows of this dataset within the range: intersect with [offset, offset + n).
            if rows.step > 0:
                first = max(rows.start, offset)
                first += (rows.start - first) % rows.step
                if first >= min(rows.stop, offset + n):
                    continue
                stop = local[1] if local[1] < n else None
            else:
                first = min(rows.start, offset + n - 1)
                first -= (first - rows.start) % -rows.step
                if first <= max(rows.stop, offset - 1):
                    continue
                stop = local[1] if local[1] >= 0 else None
            parts.append((dataset, slice(first - offset, stop, rows.step)))
        return parts

    def _from_list(self, indices, key_indices):
        rows = _slice._as_rows(indices, self._len)
        where = []
        local = [[] for _ in self._datasets]
        for r in rows:
            d = len(self._offsets) - 1
            while self._offsets[d] > r:
                d -= 1
            where.append((d, len(local[d])))
            local[d].append(r - self._offsets[d])
        used = [d for d, rs in enumerate(local) if rs]
        if len(used) == 1:
            return self._datasets[used[0]].get_examples(local[used[0]], key_indices)
        if not used:
            n_cols = len(self.keys) if key_indices is None else len(key_indices)
            return tuple([] for _ in range(n_cols))
        results = {d: self._datasets[d].get_examples(local[d], key_indices) for d in used}
        n_cols = len(next(iter(results.values())))
        return tuple([results[d][c][i] for d, i in where] for c in range(n_cols))

    def convert(self, data):
        return self._datasets[0].convert(data)
