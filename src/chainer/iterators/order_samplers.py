"""Order samplers: decide the order in which an iterator visits a dataset."""
from chainer.utils import _random_state


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
            one when ``None`` (then ``numpy.random.seed`` makes the orders
            reproducible, and they are those Chainer 7.8.1 draws).

    Its :meth:`serialize` saves the state of the generator and a load restores
    it, so that a resumed run draws the same permutations as an uninterrupted
    one. With the global generator, loading an iterator thus sets NumPy's
    global state to the saved one (Chainer 7.8.1 saves no random state).
    """

    def __init__(self, random_state=None):
        if random_state is None:
            random_state = _random_state.global_generator()
        self._random = random_state

    def __call__(self, current_order, current_position):
        return self._random.permutation(len(current_order))

    def serialize(self, serializer):
        """Saves or loads the generator's state (keys ``mt19937_keys``,
        ``mt19937_pos``, ``has_gauss``, ``cached_gaussian``); a file without
        them leaves the generator alone."""
        _random_state.serialize(serializer, self._random)


def _resolve(shuffle, order_sampler):
    # The sampler an iterator uses given its `shuffle` and `order_sampler` arguments.
    if order_sampler is not None:
        if shuffle is not None:
            raise ValueError('`shuffle` is not `None` and a custom `order_sampler` is set. '
                             'Please set `shuffle` to `None` to use the custom order sampler.')
        return order_sampler
    if shuffle is None or shuffle:
        return ShuffleOrderSampler()
    return None
