"""DictDataset: examples as dicts of the same position in named datasets."""
import numpy


class DictDataset:
    """Dataset of dicts ``{name: dataset[i]}`` over datasets of equal length.

    Args:
        datasets: Datasets given as keyword arguments (the keys of the examples).
    """

    def __init__(self, **datasets):
        if not datasets:
            raise ValueError('no datasets are given')
        length = None
        for key, dataset in datasets.items():
            if length is None:
                length = len(dataset)
            elif len(dataset) != length:
                raise ValueError(f'dataset length conflicts at "{key}": {len(dataset)}, '
                                 f'expected {length}')
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        batches = {key: dataset[index] for key, dataset in self._datasets.items()}
        if isinstance(index, (slice, list, numpy.ndarray)):
            length = len(next(iter(batches.values())))
            return [{key: batch[i] for key, batch in batches.items()} for i in range(length)]
        return batches

    def __len__(self):
        return self._length
