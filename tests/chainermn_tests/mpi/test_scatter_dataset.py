"""scatter_dataset and scatter_index: ChainerMN 7.8.1's examples per rank, and only shards sent.

The examples each rank got from the original are recorded in
tests/fixtures/chainermn_scatter.json (tests/fixtures/make_chainermn_fixtures.py) for 2 and 3
processes.
"""
import json
import pathlib

import numpy
import pytest

import chainer
import chainermn
from chainer import datasets as D

RECORDED = json.loads((pathlib.Path(__file__).resolve().parents[2] / 'fixtures' /
                       'chainermn_scatter.json').read_text())
CASES = sorted({key.rsplit('/', 1)[0] for key in RECORDED}, key=lambda k: k.split('/'))
SEEDS = (None, 0, 1, 3, 12345)


def _recorded(comm, key):
    if f'{comm.size}/' + key.split('/', 1)[1] not in RECORDED:
        pytest.skip(f'ChainerMN was recorded with 2 and 3 processes, not {comm.size}')
    return RECORDED[f'{comm.size}/' + key.split('/', 1)[1]][comm.rank]


@pytest.mark.parametrize('case', sorted({c.split('/', 1)[1] for c in CASES}))
def test_same_examples_as_chainermn(comm, case):
    n, fel = (int(v) for v in case.split('/'))
    for seed in SEEDS:
        data = list(range(n)) if comm.rank == 0 else None
        sub = chainermn.scatter_dataset(data, comm, shuffle=seed is not None, seed=seed,
                                        force_equal_length=bool(fel))
        assert isinstance(sub, D.SubDataset)
        got = [int(x) for x in sub]
        expected = _recorded(comm, f'{comm.size}/{case}/{seed}')
        if seed is None and n > 1:
            continue  # no shuffle: covered by the row below; a fresh shuffle is random
        assert got == expected, (seed, got, expected)
    unshuffled = chainermn.scatter_dataset(list(range(n)) if comm.rank == 0 else None, comm,
                                           force_equal_length=bool(fel))
    assert [int(x) for x in unshuffled] == _recorded(comm, f'{comm.size}/{case}/None')
    got = chainermn.scatter_index(n, comm, force_equal_length=bool(fel))
    assert list(got) == _recorded(comm, f'{comm.size}/{case}/index')


def test_a_fresh_shuffle_is_one_permutation_shared_by_all(comm):
    n = 40
    sub = chainermn.scatter_dataset(list(range(n)) if comm.rank == 0 else None, comm,
                                    shuffle=True, force_equal_length=False)
    everything = sum(comm.bcast_obj(comm.gather_obj(list(sub))), [])
    assert sorted(everything) == list(range(n))


class Lazy(chainer.dataset.DatasetMixin):
    """Examples made on demand (as from files): cannot be sharded without loading them."""

    def __init__(self, n):
        self.n = n

    def __len__(self):
        return self.n

    def get_example(self, i):
        return numpy.full(2, i, numpy.float32), numpy.int32(i % 3)


N = 23


def _datasets():
    x = numpy.arange(N * 2, dtype=numpy.float32).reshape(N, 2)
    t = numpy.arange(N, dtype=numpy.int32) % 3
    return {
        'ndarray': (lambda: x, True),
        'list': (lambda: [(x[i], t[i]) for i in range(N)], True),
        'tuple-dataset': (lambda: D.TupleDataset(x, t), True),
        'dict-dataset': (lambda: D.DictDataset(x=x, t=t), True),
        'sub-of-tuple': (lambda: D.SubDataset(D.TupleDataset(x, t), 2, N, numpy.arange(N)[::-1]),
                         True),
        'transform-of-tuple': (lambda: D.TransformDataset(D.TupleDataset(x, t), _double), True),
        'lazy': (lambda: Lazy(N), False),
        'transform-of-lazy': (lambda: D.TransformDataset(Lazy(N), _double), False),
    }


def _double(example):
    return tuple(numpy.asarray(v) * 2 for v in example)


DATASETS = _datasets()


def _same(a, b):
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, tuple):
        return len(a) == len(b) and all(_same(u, v) for u, v in zip(a, b))
    return numpy.array_equal(numpy.asarray(a), numpy.asarray(b))


@pytest.mark.parametrize('kind', DATASETS)
@pytest.mark.parametrize('shuffle', [False, True])
def test_each_rank_gets_its_examples_and_only_its_shard_travels(comm, kind, shuffle):
    make, shardable = DATASETS[kind]
    full = make()
    sub = chainermn.scatter_dataset(full if comm.rank == 0 else None, comm, shuffle=shuffle,
                                    seed=7, force_equal_length=False, max_buf_len=1000)
    order = numpy.random.RandomState(7).permutation(len(full)) if shuffle else None
    begin = {r: b for r, b, _ in chainermn.datasets.scatter._scatter_index(
        len(full), comm.size, False)}[comm.rank]
    assert len(sub) == len(range(*chainermn.scatter_index(len(full), comm,
                                                          force_equal_length=False)))
    for k in range(len(sub)):
        i = begin + k if order is None else order[begin + k]
        assert _same(sub[k], full[int(i)]), (kind, k)
    if comm.rank != 0:
        # What arrived: the shard alone, or (for lazy datasets) the dataset object whole.
        assert len(sub._dataset) == (len(sub) if shardable else len(full))


def test_root_errors_reach_every_rank(comm):
    class Unpicklable(Lazy):
        def __reduce__(self):
            raise TypeError('not picklable')

    with pytest.raises(chainermn.DataSizeError, match='pickle'):
        chainermn.scatter_dataset(Unpicklable(10) if comm.rank == 0 else None, comm)
    with pytest.raises(TypeError):
        chainermn.scatter_dataset(object() if comm.rank == 0 else None, comm)  # no len()
    with pytest.raises(AssertionError, match='root'):
        chainermn.scatter_dataset([1, 2], comm, root=comm.size)
    with pytest.raises(AssertionError, match='max_buf_len'):
        chainermn.scatter_dataset([1, 2], comm, max_buf_len=0)


def test_empty_dataset_keeps_the_length():
    from chainermn.datasets import create_empty_dataset
    for d in ([], [0], list(range(49)), numpy.arange(10), D.TupleDataset(numpy.arange(3))):
        empty = create_empty_dataset(d)
        assert len(empty) == len(d) and all(e == () for e in empty)
