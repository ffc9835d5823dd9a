"""Every array collective of the MPI communicators against its NumPy definition.

Each rank contributes ``data(rank, shape, dtype)``; since every rank can compute every other
rank's data, each checks its result against the NumPy expression of the collective.
"""
import itertools

import numpy
import pytest

from chainermn_tests.mpi._mpi_util import DTYPES, SHAPES, assert_same, data

GRID = list(itertools.product(DTYPES, SHAPES))
GRID_IDS = [f'{numpy.dtype(d).name}-{"x".join(map(str, s)) or "scalar"}' for d, s in GRID]


@pytest.mark.parametrize('dtype,shape', GRID, ids=GRID_IDS)
def test_allreduce_is_the_sum(any_comm, dtype, shape):
    y = any_comm.allreduce(data(any_comm.rank, shape, dtype))
    expected = sum(data(r, shape, dtype).astype(numpy.float64) for r in range(any_comm.size))
    assert_same(y, numpy.asarray(expected).astype(dtype))


@pytest.mark.parametrize('dtype,shape', GRID, ids=GRID_IDS)
def test_bcast_from_every_root(any_comm, dtype, shape):
    for root in range(any_comm.size):
        x = data(root, shape, dtype, salt=1) if any_comm.rank == root else None
        assert_same(any_comm.bcast(x, root=root), data(root, shape, dtype, salt=1))


@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: numpy.dtype(d).name)
def test_gather_to_every_root_with_shapes_per_rank(any_comm, dtype):
    for root in range(any_comm.size):
        ys = any_comm.gather(data(any_comm.rank, (any_comm.rank + 1, 2), dtype), root=root)
        if any_comm.rank != root:
            assert ys is None
            continue
        assert isinstance(ys, tuple) and len(ys) == any_comm.size
        for r, y in enumerate(ys):
            assert_same(y, data(r, (r + 1, 2), dtype))


@pytest.mark.parametrize('dtype,shape', GRID, ids=GRID_IDS)
def test_allgather(any_comm, dtype, shape):
    ys = any_comm.allgather(data(any_comm.rank, shape, dtype))
    assert isinstance(ys, tuple) and len(ys) == any_comm.size
    for r, y in enumerate(ys):
        assert_same(y, data(r, shape, dtype))


@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: numpy.dtype(d).name)
def test_scatter_from_every_root(any_comm, dtype):
    for root in range(any_comm.size):
        xs = None
        if any_comm.rank == root:
            xs = tuple(data(100 + i, (i + 2, 3), dtype) for i in range(any_comm.size))
        y = any_comm.scatter(xs, root=root)
        assert_same(y, data(100 + any_comm.rank, (any_comm.rank + 2, 3), dtype))


@pytest.mark.parametrize('dtype', DTYPES, ids=lambda d: numpy.dtype(d).name)
def test_alltoall_with_shapes_per_pair(any_comm, dtype):
    me, n = any_comm.rank, any_comm.size
    # xs[j] goes to rank j; its shape depends on both ends.
    xs = [data(10 * me + j, (me + 1, j + 1), dtype) for j in range(n)]
    ys = any_comm.alltoall(xs)
    assert isinstance(ys, tuple) and len(ys) == n
    for j, y in enumerate(ys):
        assert_same(y, data(10 * j + me, (j + 1, me + 1), dtype))


@pytest.mark.parametrize('dtype,shape', GRID, ids=GRID_IDS)
def test_send_recv_around_a_ring(any_comm, dtype, shape):
    me, n = any_comm.rank, any_comm.size
    nxt, prev = (me + 1) % n, (me - 1) % n
    x = data(me, shape, dtype, salt=2)
    # Even ranks send first, odd ranks receive first: no two ranks wait on each other.
    if me % 2 == 0:
        any_comm.send(x, dest=nxt, tag=7)
        y = any_comm.recv(source=prev, tag=7)
    else:
        y = any_comm.recv(source=prev, tag=7)
        any_comm.send(x, dest=nxt, tag=7)
    assert_same(y, data(prev, shape, dtype, salt=2))


@pytest.mark.parametrize('container', [tuple, list])
def test_send_recv_tuple_of_arrays(comm, container):
    me, n = comm.rank, comm.size
    shapes = ((4,), (2, 3), (), (1, 0))
    if me == 0:
        for dest in range(1, n):
            comm.send(container(data(dest, s, numpy.float32) for s in shapes), dest, tag=3)
    else:
        ys = comm.recv(source=0, tag=3)
        assert isinstance(ys, tuple) and len(ys) == len(shapes)
        for y, s in zip(ys, shapes):
            assert_same(y, data(me, s, numpy.float32))


def test_non_contiguous_arrays(comm):
    base = numpy.arange(60, dtype=numpy.float64).reshape(3, 4, 5) * (comm.rank + 1)
    x = base[:, 1, ::2]  # neither C- nor Fortran-contiguous
    assert not x.flags.c_contiguous and not x.flags.f_contiguous
    ys = comm.allgather(x)
    for r, y in enumerate(ys):
        assert_same(y, numpy.ascontiguousarray(base[:, 1, ::2] / (comm.rank + 1) * (r + 1)))
    assert_same(comm.allreduce(x), x / (comm.rank + 1) * sum(range(1, comm.size + 1)))
    ys = comm.alltoall([x] * comm.size)
    for r, y in enumerate(ys):
        assert_same(y, x / (comm.rank + 1) * (r + 1))


def test_recv_from_any_source_and_tag(comm):
    from mpi4py import MPI
    if comm.rank == 0:
        got = {}
        for _ in range(comm.size - 1):
            y = comm.recv(source=MPI.ANY_SOURCE, tag=MPI.ANY_TAG)
            got[int(y[0])] = y
        assert sorted(got) == list(range(1, comm.size))
        for r, y in got.items():
            assert_same(y, numpy.full(r + 2, r, numpy.int64))
    else:
        comm.send(numpy.full(comm.rank + 2, comm.rank, numpy.int64), dest=0, tag=comm.rank)


BAD_MESSAGES = [
    ('bool', lambda: numpy.ones(3, bool), TypeError),
    ('uint8', lambda: numpy.ones(3, numpy.uint8), TypeError),
    ('complex', lambda: numpy.ones(3, numpy.complex64), TypeError),
    ('python-float', lambda: 3.0, TypeError),
    ('none', lambda: None, TypeError),
    ('list-of-ints', lambda: [1, 2], ValueError),
    ('mixed-dtypes', lambda: [numpy.ones(2, numpy.float32), numpy.ones(2, numpy.int32)],
     TypeError),
]


@pytest.mark.parametrize('name,make,error', BAD_MESSAGES, ids=[b[0] for b in BAD_MESSAGES])
def test_a_bad_message_fails_on_every_rank_without_a_hang(comm, name, make, error):
    # Only the last rank passes the bad message; every rank must raise (none may wait).
    bad = comm.rank == comm.size - 1
    x = make() if bad else numpy.ones(2, numpy.float32)
    with pytest.raises(error) as e:
        comm.allgather(x)
    assert 'allgather' in str(e.value)
    if not bad:
        assert f'rank {comm.size - 1}' in str(e.value)
    root = comm.size - 1
    with pytest.raises(error):
        comm.bcast(make() if comm.rank == root else None, root=root)
    with pytest.raises(error):
        comm.alltoall([make() if bad else numpy.ones(2, numpy.float32)] * comm.size)
    if comm.rank == root:
        with pytest.raises(error):
            comm.send(make(), dest=0, tag=11)
    elif comm.rank == 0:
        with pytest.raises(error):
            comm.recv(source=root, tag=11)


def test_tuple_data_is_refused_by_reductions(comm):
    pair = (numpy.ones(2), numpy.ones(2))
    for op in (comm.allreduce, comm.allgather, comm.gather):
        with pytest.raises(TypeError, match='tuple'):
            op(pair)
    with pytest.raises(ValueError, match='length'):
        comm.alltoall([numpy.ones(2)] * (comm.size + 1))
    with pytest.raises(ValueError, match='length'):
        comm.scatter([numpy.ones(2)] * (comm.size + 1) if comm.rank == 0 else None)
