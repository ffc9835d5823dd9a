"""ConcatenatedDataset: several datasets one after another."""
from chainer.dataset import dataset_mixin


class ConcatenatedDataset(dataset_mixin.DatasetMixin):
    """The examples of ``datasets[0]``, then those of ``datasets[1]``, and so on.

    Args:
        datasets: The datasets to concatenate.
    """

    def __init__(self, *datasets):
        self._datasets = datasets

    def __len__(self):
        return sum(len(dataset) for dataset in self._datasets)

    def get_example(self, i):
        if i < 0:
            raise IndexError(f'ConcatenatedDataset: negative index {i} is not supported')
        for dataset in self._datasets:
            if i < len(dataset):
                return dataset[i]
            i -= len(dataset)
        raise IndexError(f'ConcatenatedDataset: index out of range ({len(self)} examples)')
