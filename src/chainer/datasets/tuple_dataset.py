"""TupleDataset: examples made of the same position in several datasets."""
import numpy


class TupleDataset:
    """Dataset of tuples ``(d1[i], d2[i], ...)`` over datasets of equal length.

    Args:
        datasets: Datasets (lists, arrays...) of the same length.

    Indexing with a slice (or anything that returns several examples from each
    dataset) returns a list of tuples.
    """

    def __init__(self, *datasets):
        if not datasets:
            raise ValueError('no datasets are given')
        length = len(datasets[0])
        for i, dataset in enumerate(datasets):
            if len(dataset) != length:
                raise ValueError(
                    f'dataset of the index {i} has a wrong length: {len(dataset)}, '
                    f'expected {length}')
        self._datasets = datasets
        self._length = length

    def __getitem__(self, index):
        batches = [dataset[index] for dataset in self._datasets]
        if isinstance(index, (slice, list, numpy.ndarray)):
            return list(zip(*batches))
        return tuple(batches)

    def __len__(self):
        return self._length
