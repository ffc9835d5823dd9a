"""create_synchronized_iterator: iterators that shuffle in the same order on every process."""
import numpy

import chainer
from chainer.dataset import iterator as _iterator
from chainer.iterators import order_samplers


class _SynchronizedIterator(_iterator.Iterator):
    """Wraps an iterator whose shuffling was synchronized; attributes are the actual
    iterator's."""

    def __init__(self, actual_iterator, communicator):
        if not hasattr(actual_iterator, 'order_sampler'):
            raise ValueError('create_synchronized_iterator: the iterator must have an '
                             f'order_sampler (as SerialIterator has), got '
                             f'{type(actual_iterator).__name__}')
        super().__setattr__('actual_iterator', actual_iterator)
        # Every process draws orders from one seed, chosen by rank 0.
        seed = numpy.random.randint(0, 2 ** 31) if communicator.rank == 0 else None
        seed = communicator.bcast_obj(seed)
        if actual_iterator.order_sampler is not None:
            actual_iterator.order_sampler = order_samplers.ShuffleOrderSampler(
                numpy.random.RandomState(seed))
        actual_iterator.reset()

    def __getattr__(self, name):
        if name.startswith('__') or name == 'actual_iterator':
            raise AttributeError(name)
        return getattr(self.actual_iterator, name)

    def __next__(self):
        return self.actual_iterator.next()

    next = __next__

    def serialize(self, serializer):
        self.actual_iterator.serialize(serializer)


def create_synchronized_iterator(actual_iterator, communicator):
    """Makes an iterator shuffle in the same order on every process.

    Each process iterates over its own dataset (of the same length), but the shuffled
    orders are the same everywhere: the iterator's shuffling sampler is replaced by one whose
    seed rank 0 chose, and the iterator is reset. An iterator that does not shuffle
    (``order_sampler`` is ``None``) is left in its order. Every process calls this together.

    Args:
        actual_iterator (~chainer.dataset.Iterator): An iterator with an ``order_sampler``
            (``SerialIterator``, ``MultiprocessIterator``, ...).
        communicator (~chainermn.CommunicatorBase): The communicator.

    Returns:
        ~chainer.dataset.Iterator: The synchronized iterator.
    """
    chainer.utils.experimental('chainermn.iterators.create_synchronized_iterator')
    return _SynchronizedIterator(actual_iterator, communicator)
