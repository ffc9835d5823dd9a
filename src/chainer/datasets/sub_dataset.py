"""SubDataset and the functions that split datasets (train/validation, folds)."""
import numbers

import numpy

from chainer.dataset import dataset_mixin


class SubDataset(dataset_mixin.DatasetMixin):
    """The examples ``start <= i < finish`` of a dataset, optionally permuted.

    Args:
        dataset: The underlying dataset.
        start (int): First index (in the permuted order).
        finish (int): End index (exclusive).
        order (sequence of ints): A permutation of the dataset's indices; the
            sub-dataset is ``dataset[order[start:finish]]``. ``None``: no
            permutation.
    """

    def __init__(self, dataset, start, finish, order=None):
        if start < 0 or finish > len(dataset):
            raise ValueError(f'SubDataset: the range [{start}, {finish}) exceeds the '
                             f'dataset of length {len(dataset)}')
        if order is not None and len(order) != len(dataset):
            raise ValueError(f'SubDataset: order has length {len(order)}, the dataset '
                             f'{len(dataset)}; order must be a permutation of the indices')
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._size = finish - start
        self._order = order

    def __len__(self):
        return self._size

    def get_example(self, i):
        if i >= 0:
            if i >= self._size:
                raise IndexError('dataset index out of range')
            index = self._start + i
        else:
            if i < -self._size:
                raise IndexError('dataset index out of range')
            index = self._finish + i
        if self._order is not None:
            index = self._order[index]
        return self._dataset[index]


def split_dataset(dataset, split_at, order=None):
    """Splits a dataset in two at ``split_at``.

    Args:
        dataset: The dataset.
        split_at (int): Size of the first part.
        order: Optional permutation of the indices (see :class:`SubDataset`).

    Returns:
        tuple: ``(first, second)`` :class:`SubDataset` objects.
    """
    if not isinstance(split_at, (numbers.Integral, numpy.integer)):
        raise TypeError(f'split_at must be int, got {type(split_at)} instead')
    n = len(dataset)
    if split_at < 0:
        raise ValueError(f'split_at must be non-negative, got {split_at}')
    if split_at > n:
        raise ValueError(f'split_at exceeds the dataset size: {split_at} > {n}')
    return SubDataset(dataset, 0, split_at, order), SubDataset(dataset, split_at, n, order)


def split_dataset_random(dataset, first_size, seed=None):
    """Splits a dataset in two random parts; the first has ``first_size`` examples.

    Args:
        dataset: The dataset.
        first_size (int): Size of the first part.
        seed (int): Seed of the permutation (``None``: a generator seeded by the
            operating system).

    Returns:
        tuple: Two :class:`SubDataset` objects.
    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset(dataset, first_size, order)


def split_dataset_n(dataset, n, order=None):
    """Splits a dataset into ``n`` parts of ``len(dataset) // n`` examples each.

    The last ``len(dataset) % n`` examples are left out.

    Returns:
        list: ``n`` :class:`SubDataset` objects.
    """
    size = len(dataset) // n
    return [SubDataset(dataset, size * i, size * (i + 1), order) for i in range(n)]


def split_dataset_n_random(dataset, n, seed=None):
    """Like :func:`split_dataset_n`, over a random permutation (seeded by ``seed``)."""
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset_n(dataset, n, order)


def get_cross_validation_datasets(dataset, n_folds=None, order=None, **kwargs):
    """Returns ``n_folds`` ``(train, validation)`` pairs for cross validation.

    The examples (in ``order``) are cut into ``n_folds`` nearly equal parts;
    fold ``k`` validates on one part and trains on the others, beginning with
    the part after the validation one.

    Args:
        dataset: The dataset.
        n_folds (int): Number of folds.
        order: Optional permutation of the indices.

    Returns:
        list: Pairs of :class:`SubDataset` objects.
    """
    if kwargs:
        n_folds = kwargs.pop('n_fold', n_folds)
        if kwargs:
            raise TypeError(f'get_cross_validation_datasets() got unexpected keyword '
                            f'arguments {sorted(kwargs)}')
    if n_folds is None:
        raise TypeError('get_cross_validation_datasets() requires n_folds')
    n = len(dataset)
    if order is None:
        order = numpy.arange(n)
    else:
        order = numpy.array(order)
    borders = [n * i // n_folds for i in range(n_folds + 1)]
    splits = []
    for k in range(n_folds):
        begin, end = borders[n_folds - k - 1], borders[n_folds - k]
        # Rotate so that the validation part comes last and training starts
        # right after it.
        rotated = numpy.roll(order, -(end % n) if n else 0)
        train_size = n - (end - begin)
        splits.append(split_dataset(dataset, train_size, rotated))
    return splits


def get_cross_validation_datasets_random(dataset, n_folds, seed=None, **kwargs):
    """Like :func:`get_cross_validation_datasets`, over a random permutation."""
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return get_cross_validation_datasets(dataset, n_folds, order, **kwargs)
