"""Behaviour shared by SerialIterator, MultithreadIterator and MultiprocessIterator."""
import numpy as np
import pytest

from chainer import iterators
from chainer_tests import _serializers


def _make(kind, dataset, batch_size, **kwargs):
    if kind == 'serial':
        return iterators.SerialIterator(dataset, batch_size, **kwargs)
    if kind == 'thread':
        return iterators.MultithreadIterator(dataset, batch_size, n_threads=2, **kwargs)
    return iterators.MultiprocessIterator(dataset, batch_size, n_processes=2, n_prefetch=2,
                                          **kwargs)


KINDS = ['serial', 'thread', 'process']


@pytest.mark.parametrize('kind', KINDS)
def test_epoch_bookkeeping_without_shuffle(kind):
    it = _make(kind, [1, 2, 3, 4, 5], 2, shuffle=False)
    assert it.epoch == 0 and it.previous_epoch_detail is None
    assert [it.next() for _ in range(3)] == [[1, 2], [3, 4], [5, 1]]
    assert it.is_new_epoch and it.epoch == 1
    assert it.epoch_detail == pytest.approx(6 / 5)
    assert it.previous_epoch_detail == pytest.approx(4 / 5)
    it.finalize()


@pytest.mark.parametrize('kind', KINDS)
def test_no_repeat_stops_and_reset_restarts(kind):
    it = _make(kind, list(range(5)), 2, repeat=False)
    for _ in range(2):
        batches = [it.next() for _ in range(3)]
        assert sorted(sum(batches, [])) == list(range(5)) and len(batches[-1]) == 1
        with pytest.raises(StopIteration):
            it.next()
        it.reset()
    it.finalize()


@pytest.mark.parametrize('kind', KINDS)
@pytest.mark.parametrize('stop_after', [2, 4, 7])
def test_resume_mid_epoch_gives_the_same_batches(kind, stop_after):
    # An interrupted run (snapshot after `stop_after` batches, restored into a new
    # iterator) sees exactly the batches of an uninterrupted one that took the same
    # snapshot (taking one drops what prefetching iterators read ahead, as in Chainer),
    # across epochs.
    dataset = list(range(7))
    np.random.seed(0)
    full = _make(kind, dataset, 3)
    expected = [full.next() for _ in range(stop_after)]
    _serializers.save(full)
    expected += [full.next() for _ in range(8)]
    full.finalize()

    np.random.seed(0)
    first = _make(kind, dataset, 3)
    got = [first.next() for _ in range(stop_after)]
    snapshot = _serializers.save(first)
    first.finalize()
    np.random.seed(123)  # a resumed process has another global state
    second = _make(kind, dataset, 3)
    _serializers.load(snapshot, second)
    got += [second.next() for _ in range(8)]
    second.finalize()
    assert got == expected


@pytest.mark.parametrize('kind', KINDS)
def test_snapshot_keys_and_chainer_snapshots_without_sampler_state(kind):
    it = _make(kind, list(range(6)), 2)
    it.next()
    snapshot = _serializers.save(it)
    order_key = '_order' if kind == 'thread' else 'order'
    chainer_keys = {'current_position', 'epoch', 'is_new_epoch', order_key,
                    'previous_epoch_detail'}
    assert chainer_keys <= set(snapshot)
    assert {k for k in snapshot if k not in chainer_keys} == {
        'order_sampler/mt19937_keys', 'order_sampler/mt19937_pos',
        'order_sampler/has_gauss', 'order_sampler/cached_gaussian'}
    # A snapshot as Chainer 7 writes it: no sampler state, older key names.
    old = {k: v for k, v in snapshot.items() if k in chainer_keys}
    old['_order' if order_key == 'order' else 'order'] = old.pop(order_key)
    del old['previous_epoch_detail']
    restored = _make(kind, list(range(6)), 2)
    _serializers.load(old, restored)
    assert restored.epoch_detail == pytest.approx(2 / 6)
    assert restored.previous_epoch_detail == pytest.approx(0.)
    batch = restored.next()
    assert batch == [int(i) for i in snapshot[order_key][2:4]]
    it.finalize()
    restored.finalize()


@pytest.mark.parametrize('kind', KINDS)
def test_order_sampler_epoch_size_and_invalid_sampler(kind):
    it = _make(kind, [1, 2, 3], 2, order_sampler=lambda order, pos: np.repeat(np.arange(3), 2))
    assert sorted(sum([it.next() for _ in range(3)], [])) == [1, 1, 2, 2, 3, 3]
    assert it.is_new_epoch and it.epoch == 1
    it.finalize()

    calls = []

    def shrinking(order, pos):
        calls.append(pos)
        return np.arange(len(order) - len(calls) + 1)

    it = _make(kind, [1, 2, 3], 3, order_sampler=shrinking)
    with pytest.raises(ValueError, match='size of order'):
        for _ in range(3):
            it.next()
    it.finalize()


def test_shuffle_and_order_sampler_are_exclusive():
    with pytest.raises(ValueError, match='shuffle'):
        iterators.SerialIterator([1], 1, shuffle=True,
                                 order_sampler=iterators.ShuffleOrderSampler())


def test_shuffle_order_sampler_reproducible_and_global_state_restored():
    a = iterators.ShuffleOrderSampler(np.random.RandomState(3))
    b = iterators.ShuffleOrderSampler(np.random.RandomState(3))
    assert a(np.arange(6), 0).tolist() == b(np.arange(6), 0).tolist()
    # A sampler on NumPy's global generator saves its state, and a load restores it.
    np.random.seed(5)
    saved = _serializers.save(iterators.ShuffleOrderSampler())
    expected = np.random.permutation(6).tolist()
    _serializers.load(saved, iterators.ShuffleOrderSampler())
    assert np.random.permutation(6).tolist() == expected
    # A file without the state (Chainer's) leaves the generator alone.
    np.random.seed(5)
    _serializers.load({}, iterators.ShuffleOrderSampler())
    assert np.random.permutation(6).tolist() == expected


def test_dali_iterator_is_a_clear_error():
    with pytest.raises(RuntimeError, match='not supported'):
        iterators.DaliIterator(None)


class _CountingSampler:
    # Records when orders are drawn (as NumPy's generator sees them in Chainer).
    def __init__(self):
        self.calls = 0

    def __call__(self, order, position):
        self.calls += 1
        return np.arange(len(order))


# Orders drawn after each of the first batches (3 a epoch): the initial one, then the next
# epoch's when the batch that ends an epoch is requested: at once (serial), one batch ahead
# (threads), n_prefetch + 1 ahead (processes), as Chainer 7.8.1 draws them.
@pytest.mark.parametrize('make,expected', [
    (lambda s: iterators.SerialIterator(list(range(6)), 2, order_sampler=s),
     [1, 1, 2, 2, 2, 3]),
    (lambda s: iterators.MultithreadIterator(list(range(6)), 2, order_sampler=s),
     [1, 2, 2, 2, 3, 3]),
    (lambda s: iterators.MultiprocessIterator(list(range(6)), 2, order_sampler=s,
                                              n_processes=1),
     [2, 2, 2, 3, 3, 3]),
    (lambda s: iterators.MultiprocessIterator(list(range(6)), 2, order_sampler=s,
                                              n_processes=1, n_prefetch=2),
     [2, 2, 3, 3, 3, 4]),
], ids=['serial', 'thread', 'process', 'process-prefetch2'])
def test_orders_are_drawn_when_chainer_draws_them(make, expected):
    sampler = _CountingSampler()
    it = make(sampler)
    assert sampler.calls == 1
    got = []
    for _ in expected:
        it.next()
        got.append(sampler.calls)
    assert got == expected
    if hasattr(it, 'finalize'):
        it.finalize()


@pytest.mark.parametrize('kind,first', [('thread', 2), ('process', 1)])
def test_saving_drops_what_was_read_ahead(kind, first):
    # As in Chainer 7.8.1, serializing a prefetching iterator forgets the batches it read
    # ahead: the order the batch ending the epoch drew is drawn again.
    sampler = _CountingSampler()
    if kind == 'thread':
        it = iterators.MultithreadIterator(list(range(6)), 2, order_sampler=sampler)
    else:
        it = iterators.MultiprocessIterator(list(range(6)), 2, order_sampler=sampler,
                                            n_processes=1)
    for _ in range(first):
        it.next()
    assert sampler.calls == 2
    _serializers.save(it)
    assert it.next() == [2, 3] if kind == 'process' else it.next() == [4, 5]
    assert sampler.calls == 3
    it.finalize()


def test_shuffled_orders_come_from_the_global_generator():
    np.random.seed(4)
    expected = [np.random.permutation(5).tolist() for _ in range(2)]
    np.random.seed(4)
    it = iterators.SerialIterator(list(range(5)), 5)
    assert [it.next() for _ in range(2)] == expected
