"""What SerialIterator, MultithreadIterator and MultiprocessIterator share."""
import collections

import numpy

from chainer.dataset import iterator
from chainer.iterators import _statemachine


class _StatefulIterator(iterator.Iterator):
    # Position/epoch properties, reset and serialize over an IteratorState held in
    # self._state (the state after the last batch returned) and
    # self._previous_epoch_detail (-1 when no batch has been returned yet).

    _order_key = 'order'
    _none_order_saved = False

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
        elif self._none_order_saved:
            # Chainer's MultithreadIterator writes its order even when it is None.
            try:
                serializer(self._order_key, None)
            except KeyError:
                pass
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
            except KeyError:  # an HDF5 file without the group
                child = None
            except NotImplementedError:
                # a serializer without child scopes (Chainer's iterators never asked for one):
                # the sampler's state is not saved
                child = None
            if child is not None:
                sampler_serialize(child)


def _as_batch(dataset, indices):
    return [dataset[int(i)] if isinstance(i, numpy.integer) else dataset[i] for i in indices]


class _PrefetchingIterator(_StatefulIterator):
    # Batches are requested from a pool ahead of time: self._ahead is the state
    # after the last batch requested, self._pending the requested batches as
    # (state after it, the orders its request drew, async result). The visible
    # state (self._state) moves only when a batch is returned.
    #
    # Requests draw the next epochs' orders when Chainer 7.8.1 does (ahead of the
    # batches returned), from the same generator, so a seeded run sees the same
    # random stream. Orders in self._replay (those of a copy's original) are used
    # before new ones are drawn.

    _n_prefetch = 1
    _pool = None
    _replay = ()

    def _reset_state(self):
        super()._reset_state()
        self._ahead = None
        self._pending = collections.deque()
        self._replay = collections.deque()

    def _recording_sampler(self, drawn):
        # The order sampler as requests call it: saved orders first, and what it
        # returns is recorded in `drawn`.
        sampler = self.order_sampler
        if sampler is None:
            return None

        def sample(current_order, current_position):
            order = (self._replay.popleft() if self._replay
                     else sampler(current_order, current_position))
            drawn.append(order)
            return order
        return sample

    def _request(self):
        if self._ahead is None:
            self._ahead = self._state
        while len(self._pending) < self._n_prefetch + 1:
            drawn = []
            state, indices = _statemachine.advance(
                self._ahead, self.batch_size, self._repeat, self._recording_sampler(drawn),
                len(self.dataset))
            if indices is None:
                break
            self._ahead = state
            self._pending.append((state, drawn, self._fetch_async(indices)))

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

    def _orders_ahead(self):
        # The orders drawn for what comes after the visible state, oldest first.
        return [order for _, drawn, _ in self._pending for order in drawn] + list(self._replay)

    def _drop_pending(self, keep_orders=True):
        # Forgets the batches requested ahead. With keep_orders, the orders they drew
        # are used again when they are requested anew; otherwise new ones are drawn.
        self._replay = collections.deque(self._orders_ahead() if keep_orders else ())
        for _, _, handle in self._pending:
            self._discard(handle)
        self._pending = collections.deque()
        self._ahead = None

    def _discard(self, handle):
        # A requested batch that will not be returned (subclasses free its resources).
        pass

    def serialize(self, serializer):
        """Saves or loads the state, as :class:`SerialIterator` does.

        As in Chainer 7.8.1, saving or loading forgets the batches read ahead: they
        are requested again, and an order their requests drew is drawn anew, so a
        seeded run that saves snapshots draws the numbers Chainer's does. A resumed
        run draws from the restored generator what the saved one draws after the save.
        """
        self._drop_pending(keep_orders=False)
        super().serialize(serializer)

    def _wait(self, result):
        return result.get()
