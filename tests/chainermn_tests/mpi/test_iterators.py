"""The multi-node and synchronized iterators: what every rank gets, and their snapshots."""
import numpy
import pytest

import chainer
from chainer import serializers
import chainermn

DATASETS = {
    'scalars': lambda: numpy.arange(10, dtype=numpy.float32),
    'arrays': lambda: [numpy.full((2, 3), i, numpy.float32) for i in range(10)],
    'pairs': lambda: list(zip(numpy.arange(10, dtype=numpy.float32),
                              numpy.arange(10, dtype=numpy.int32))),
}


def same_everywhere(comm, value):
    everyone = comm.bcast_obj(comm.gather_obj(value))
    return all(_equal(v, everyone[0]) for v in everyone)


def _equal(a, b):
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_equal(x, y) for x, y in zip(a, b))
    return numpy.array_equal(a, b) and numpy.asarray(a).dtype == numpy.asarray(b).dtype


@pytest.mark.parametrize('name', DATASETS)
@pytest.mark.parametrize('repeat', [True, False])
def test_every_rank_gets_the_masters_batches(comm, name, repeat):
    master = comm.size - 1
    dataset = DATASETS[name]()
    # Shuffling draws from NumPy's global generator (as in Chainer), so the iterator run alone
    # goes first, and the master's iterator then starts from the same seed.
    numpy.random.seed(master)
    alone = chainer.iterators.SerialIterator(dataset, 3, repeat=repeat, shuffle=True)
    expected = []
    for _ in range(9):
        try:
            batch = alone.next()
        except StopIteration:
            expected.append(None)
            break
        expected.append((batch, (alone.epoch, alone.is_new_epoch, alone.current_position),
                         alone.epoch_detail))
    numpy.random.seed(master if comm.rank == master else comm.rank)
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(dataset, 3, repeat=repeat, shuffle=True)
        if comm.rank == master else None, comm, rank_master=master)
    for row in expected:
        if row is None:
            with pytest.raises(StopIteration):
                it.next()
            break
        batch, position, detail = row
        assert _equal(it.next(), batch)
        assert (it.epoch, it.is_new_epoch, it.current_position) == position
        assert it.epoch_detail == pytest.approx(detail)


def test_invalid_elements_raise_on_every_rank(comm):
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator([{'a': 1}] * 4, 2), comm)
    with pytest.raises(TypeError, match='ndarray or tuple'):
        it.next()


def test_an_error_of_the_master_iterator_reaches_every_rank(comm):
    class Broken(chainer.dataset.DatasetMixin):
        def __len__(self):
            return 4

        def get_example(self, i):
            raise KeyError('no example here')

    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(Broken(), 2) if comm.rank == 0 else None, comm)
    with pytest.raises(KeyError, match='no example here'):
        it.next()


def test_snapshots_of_every_rank_hold_the_masters_state(comm, tmp_path_factory):
    path = str(comm.bcast_obj(str(tmp_path_factory.mktemp('it')) if comm.rank == 0 else None))
    path = f'{path}/it{comm.rank}.npz'
    dataset = numpy.arange(10, dtype=numpy.float32)
    numpy.random.seed(comm.rank)
    it = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(dataset, 3, shuffle=True), comm)
    for _ in range(4):
        it.next()
    serializers.save_npz(path, it)
    after = [it.next() for _ in range(5)]
    with numpy.load(path) as saved:
        assert same_everywhere(comm, {k: saved[k].tolist() for k in
                                      ('epoch', 'current_position', 'is_new_epoch', 'order')})
    # Resuming from the snapshot (each rank loads its own) gives the same batches again.
    numpy.random.seed(10 + comm.rank)
    resumed = chainermn.iterators.create_multi_node_iterator(
        chainer.iterators.SerialIterator(dataset, 3, shuffle=True), comm)
    serializers.load_npz(path, resumed)
    assert [resumed.next() for _ in range(5)] == after


@pytest.mark.parametrize('batch_size', [4, 7])
def test_synchronized_iterators_shuffle_alike(comm, batch_size):
    numpy.random.seed(comm.rank)
    dataset = numpy.arange(20, dtype=numpy.float32) + 100 * comm.rank
    it = chainermn.iterators.create_synchronized_iterator(
        chainer.iterators.SerialIterator(dataset, batch_size, shuffle=True), comm)
    orders = [numpy.asarray(it.next()) - 100 * comm.rank for _ in range(12)]
    assert same_everywhere(comm, orders)
    assert not _equal(orders[:5], [numpy.arange(i * batch_size, (i + 1) * batch_size)
                                   for i in range(5)])
    assert it.epoch >= 1


def test_synchronized_iterator_keeps_an_unshuffled_order(comm):
    it = chainermn.iterators.create_synchronized_iterator(
        chainer.iterators.SerialIterator(numpy.arange(6), 2, shuffle=False), comm)
    assert [list(it.next()) for _ in range(3)] == [[0, 1], [2, 3], [4, 5]]
