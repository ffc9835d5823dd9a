"""Order samplers: decide the order in which an iterator visits a dataset."""
import numpy


class OrderSampler:
    """Base class of order samplers.

    An iterator calls ``sampler(current_order, current_position)`` at the start
    of each epoch; it returns the indices (an int array) the next epoch visits.
    Its length is the epoch size and must stay the same across epochs.
    """

    def __call__(self, current_order, current_position):
        raise NotImplementedError(f'{type(self).__name__} must define __call__')


class ShuffleOrderSampler(OrderSampler):
    """Visits the examples in a new random permutation every epoch.

    Args:
        random_state (numpy.random.RandomState): The generator; NumPy's global
            one when ``None``.

    Its :meth:`serialize` saves and restores the generator's state, so that a
    resumed run draws the same permutations as an uninterrupted one (the global
    generator is left alone: it is not the sampler's to restore).
    """

    def __init__(self, random_state=None):
        self._owns_state = random_state is not None
        if random_state is None:
            random_state = numpy.random.random.__self__
        self._random = random_state

    def __call__(self, current_order, current_position):
        return self._random.permutation(len(current_order))

    def serialize(self, serializer):
        """Saves or loads the random state (keys ``mt19937_keys``, ``mt19937_pos``,
        ``has_gauss``, ``cached_gaussian``)."""
        if not self._owns_state:
            return
        _, keys, pos, has_gauss, cached = self._random.get_state(legacy=True)
        try:
            keys = serializer('mt19937_keys', keys)
            pos = serializer('mt19937_pos', pos)
            has_gauss = serializer('has_gauss', has_gauss)
            cached = serializer('cached_gaussian', cached)
        except KeyError:
            # A snapshot without the state (Chainer's own): keep ours.
            return
        self._random.set_state(('MT19937', numpy.asarray(keys, numpy.uint32), int(pos),
                                int(has_gauss), float(cached)))


def _default_sampler():
    # The sampler of `shuffle=True`: a generator of its own, seeded from NumPy's
    # global one (so numpy.random.seed still makes runs reproducible) and saved
    # with the iterator.
    return ShuffleOrderSampler(numpy.random.RandomState(numpy.random.randint(2 ** 31)))


def _resolve(shuffle, order_sampler):
    # The sampler an iterator uses given its `shuffle` and `order_sampler` arguments.
    if order_sampler is not None:
        if shuffle is not None:
            raise ValueError('`shuffle` is not `None` and a custom `order_sampler` is set. '
                             'Please set `shuffle` to `None` to use the custom order sampler.')
        return order_sampler
    if shuffle is None or shuffle:
        return _default_sampler()
    return None
