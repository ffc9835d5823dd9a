"""What SerialIterator, MultithreadIterator and MultiprocessIterator share."""
import collections

import numpy

from chainer.dataset import iterator
from chainer.iterators import _statemachine
from chainer.iterators import order_samplers


class _StatefulIterator(iterator.Iterator):
    # Position/epoch properties, reset and serialize over an IteratorState held in
    # self._state (the state after the last batch returned) and
    # self._previous_epoch_detail (-1 when no batch has been returned yet).

    _order_key = 'order'

    def _init_common(self, dataset, batch_size, repeat, order_sampler):
        self.dataset = dataset
        self.batch_size = batch_size
        self._repeat = repeat
        self.order_sampler = order_sampler
        self._reset_state()

    def _reset_state(self):
        order = _statemachine.new_order(self.order_sampler, len(self.dataset))
        self._state = _statemachine.IteratorState(0, 0, False, order)
        self._previous_epoch_detail = -1.

    def _next_indices(self):
        # Advances the visible state by one batch; returns its indices.
        state, indices = _statemachine.advance(
            self._state, self.batch_size, self._repeat, self.order_sampler, len(self.dataset))
        if indices is None:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        self._state = state
        return indices

    @property
    def repeat(self):
        return self._repeat

    @property
    def current_position(self):
        return self._state.current_position

    @property
    def epoch(self):
        return self._state.epoch

    @property
    def is_new_epoch(self):
        return self._state.is_new_epoch

    @property
    def _epoch_size(self):
        order = self._state.order
        return len(self.dataset) if order is None else len(order)

    @property
    def epoch_detail(self):
        return self.epoch + self.current_position / self._epoch_size

    @property
    def previous_epoch_detail(self):
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    def reset(self):
        """Goes back to the start of the first epoch (with a new order)."""
        self._reset_state()

    def serialize(self, serializer):
        """Saves or loads the position, epoch and order, with Chainer's keys.

        The order sampler's own state (its random generator) is saved under
        ``order_sampler/`` when it has a ``serialize`` method; snapshots without
        it (Chainer's, older ones) still load.
        """
        position, epoch, is_new_epoch, order = self._state
        position = int(serializer('current_position', position))
        epoch = int(serializer('epoch', epoch))
        is_new_epoch = bool(serializer('is_new_epoch', is_new_epoch))
        if order is not None:
            try:
                order = serializer(self._order_key, order)
            except KeyError:
                # Snapshots of other versions use the other name.
                other = '_order' if self._order_key == 'order' else 'order'
                order = serializer(other, order)
        self._state = _statemachine.IteratorState(position, epoch, is_new_epoch, order)
        try:
            self._previous_epoch_detail = float(
                serializer('previous_epoch_detail', self._previous_epoch_detail))
        except KeyError:
            # Old snapshots lack it: it is one batch before the current point.
            detail = epoch + (position - self.batch_size) / self._epoch_size
            self._previous_epoch_detail = max(detail, 0.) if self.epoch_detail > 0 else -1.
        sampler_serialize = getattr(self.order_sampler, 'serialize', None)
        if sampler_serialize is not None:
            try:
                child = serializer['order_sampler']
            except NotImplementedError:
                # A serializer without child scopes (Chainer's iterators never asked for
                # one): the sampler's state is not saved.
                return
            sampler_serialize(child)


def _as_batch(dataset, indices):
    return [dataset[int(i)] if isinstance(i, numpy.integer) else dataset[i] for i in indices]


class _PrefetchingIterator(_StatefulIterator):
    # Batches are requested from a pool ahead of time: self._ahead is the state
    # after the last batch requested, self._pending the requested batches as
    # (state after it, sampler random state before it, async result).
    # The visible state (self._state) moves only when a batch is returned.

    _n_prefetch = 1
    _pool = None

    def _reset_state(self):
        super()._reset_state()
        self._ahead = None
        self._pending = collections.deque()

    def _sampler_random(self):
        sampler = self.order_sampler
        if isinstance(sampler, order_samplers.ShuffleOrderSampler) and sampler._owns_state:
            return sampler._random
        return None

    def _request(self):
        if self._ahead is None:
            self._ahead = self._state
        random = self._sampler_random()
        while len(self._pending) < self._n_prefetch + 1:
            before = random.get_state() if random is not None else None
            state, indices = _statemachine.advance(
                self._ahead, self.batch_size, self._repeat, self.order_sampler,
                len(self.dataset))
            if indices is None:
                break
            self._ahead = state
            self._pending.append((state, before, self._fetch_async(indices)))

    def __next__(self):
        self._request()
        if not self._pending:
            raise StopIteration
        state, _, result = self._pending.popleft()
        batch = self._wait(result)
        self._previous_epoch_detail = self.epoch_detail
        self._state = state
        self._request()
        return batch

    next = __next__

    def _drop_pending(self):
        # Forgets the batches requested ahead; the sampler's generator goes back
        # to where it was after the last batch returned, so requesting them again
        # draws the same orders.
        random = self._sampler_random()
        if self._pending and random is not None:
            random.set_state(self._pending[0][1])
        for _, _, handle in self._pending:
            self._discard(handle)
        self._pending = collections.deque()
        self._ahead = None

    def _discard(self, handle):
        # A requested batch that will not be returned (subclasses free its resources).
        pass

    def serialize(self, serializer):
        self._drop_pending()
        super().serialize(serializer)

    def _wait(self, result):
        return result.get()
