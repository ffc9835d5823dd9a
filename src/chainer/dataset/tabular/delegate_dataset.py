"""DelegateDataset: a TabularDataset that forwards to another one."""
from chainer.dataset.tabular import tabular_dataset


class DelegateDataset(tabular_dataset.TabularDataset):
    """Forwards length, keys, mode and :meth:`get_examples` to ``dataset``.

    A base for datasets defined as a tabular expression, e.g. a subclass whose
    ``__init__`` builds ``dataset`` from ``from_data``, ``join`` and ``transform``.

    Args:
        dataset (TabularDataset): The dataset to forward to.
    """

    def __init__(self, dataset):
        self.dataset = dataset

    def __len__(self):
        return len(self.dataset)

    @property
    def keys(self):
        return self.dataset.keys

    @property
    def mode(self):
        return self.dataset.mode

    def get_examples(self, indices, key_indices):
        return self.dataset.get_examples(indices, key_indices)
