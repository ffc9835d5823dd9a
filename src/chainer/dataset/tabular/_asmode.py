from chainer.dataset.tabular import tabular_dataset


class _Asmode(tabular_dataset.TabularDataset):
    # The same columns with another example type; data and converter unchanged.

    _mode = None

    def __init__(self, dataset):
        self._dataset = dataset

    def __len__(self):
        return len(self._dataset)

    @property
    def keys(self):
        return self._dataset.keys

    @property
    def mode(self):
        return self._mode

    def get_examples(self, indices, key_indices):
        return self._dataset.get_examples(indices, key_indices)

    def convert(self, data):
        return self._dataset.convert(data)


class _Astuple(_Asmode):
    _mode = tuple


class _Asdict(_Asmode):
    _mode = dict
