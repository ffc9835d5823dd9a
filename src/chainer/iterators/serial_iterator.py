"""SerialIterator: reads examples one after another in the main process."""
from chainer.iterators import _base
from chainer.iterators import order_samplers


class SerialIterator(_base._StatefulIterator):
    """Iterates over a dataset in index order or in a shuffled order.

    Args:
        dataset: A dataset (anything with ``__len__`` and ``__getitem__``).
        batch_size (int): Number of examples per batch.
        repeat (bool): Loop over the dataset forever (the default), or stop with
            ``StopIteration`` after one epoch (the last batch may be smaller).
        shuffle (bool): Visit the examples in a new random order each epoch.
            ``None`` (the default) means ``True`` unless ``order_sampler`` is given.
        order_sampler (callable): ``order_sampler(current_order, position)``
            returns the next epoch's order (see
            :class:`~chainer.iterators.OrderSampler`).

    Snapshots (``serialize``) hold the position, the current order and the
    default sampler's random state, so a resumed run sees the same batches.
    """

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None, order_sampler=None):
        self._init_common(dataset, batch_size, repeat,
                          order_samplers._resolve(shuffle, order_sampler))

    def __next__(self):
        return _base._as_batch(self.dataset, self._next_indices())

    next = __next__
