from chainer.dataset.tabular import tabular_dataset


class _Join(tabular_dataset.TabularDataset):
    # Columns of several datasets side by side; each dataset is asked only for
    # the columns it holds.

    def __init__(self, *datasets):
        keys = set()
        for dataset in datasets:
            if len(dataset) != len(datasets[0]):
                raise ValueError(
                    f'All datasets must have the same length: got {len(datasets[0])} '
                    f'and {len(dataset)}')
            if keys.intersection(dataset.keys):
                raise ValueError(
                    'All keys must be unique among all datasets: '
                    f'{sorted(keys.intersection(dataset.keys))} repeat')
            keys.update(dataset.keys)
        self._datasets = datasets

    def __len__(self):
        return len(self._datasets[0])

    @property
    def keys(self):
        return tuple(key for dataset in self._datasets for key in dataset.keys)

    @property
    def mode(self):
        return self._datasets[0].mode or tuple

    def get_examples(self, indices, key_indices):
        if key_indices is None:
            return tuple(column for dataset in self._datasets
                         for column in dataset.get_examples(indices, None))
        # Which dataset and local column each requested key index refers to.
        owners = []
        for dataset in self._datasets:
            owners.extend((dataset, k) for k in range(len(dataset.keys)))
        wanted = {}
        for k in key_indices:
            dataset, local = owners[k]
            wanted.setdefault(id(dataset), (dataset, []))[1].append(local)
        fetched = {}
        for key, (dataset, locals_) in wanted.items():
            unique = tuple(dict.fromkeys(locals_))
            columns = dataset.get_examples(indices, unique)
            fetched[key] = dict(zip(unique, columns))
        return tuple(fetched[id(owners[k][0])][owners[k][1]] for k in key_indices)

    def convert(self, data):
        return self._datasets[0].convert(data)
