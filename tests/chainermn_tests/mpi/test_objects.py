"""The ``*_obj`` methods and ``chunked_bcast_obj`` with large and nested payloads."""
import numpy
import pytest

from chainermn.communicators._communication_utility import INT_MAX
from chainermn.communicators._communication_utility import chunked_bcast_obj


def payload(rank, big=False):
    """A nested object: containers, numbers, strings, None, arrays (20 MB when ``big``)."""
    n = 20 * 2 ** 20 // 8 if big else 10
    return {
        'rank': rank,
        'name': f'rank-{rank}' * 3,
        'nested': [(rank, None, {'deep': [rank] * 5, 'set': frozenset({rank, -rank})})],
        'array': numpy.arange(n, dtype=numpy.float64) * (rank + 1),
        'int32': numpy.full((2, 3), rank, numpy.int32),
        'bytes': bytes(range(rank % 256)) * 3,
    }


def assert_payload(obj, rank, big=False):
    expected = payload(rank, big)
    assert obj.keys() == expected.keys()
    for key, value in expected.items():
        if isinstance(value, numpy.ndarray):
            assert obj[key].dtype == value.dtype
            numpy.testing.assert_array_equal(obj[key], value)
        else:
            assert obj[key] == value


OBJ_CASES = [('small', False, 2 ** 28), ('small-1-byte-chunks', False, 1),
             ('large', True, 2 ** 28), ('large-7MB-chunks', True, 7 * 2 ** 20 + 13)]


@pytest.mark.parametrize('name,big,max_buf_len', OBJ_CASES, ids=[c[0] for c in OBJ_CASES])
def test_bcast_obj_from_every_root(comm, name, big, max_buf_len):
    for root in range(comm.size):
        obj = payload(root, big) if comm.rank == root else None
        assert_payload(comm.bcast_obj(obj, max_buf_len=max_buf_len, root=root), root, big)


@pytest.mark.parametrize('n,max_buf_len', [(10, 1), (1024, 7), (355678, 2378),
                                           (234, INT_MAX - 1)])
def test_chunked_bcast_obj(comm, n, max_buf_len):
    src = numpy.arange(n) if comm.rank == 0 else None
    numpy.testing.assert_array_equal(chunked_bcast_obj(src, comm.mpi_comm, max_buf_len, 0),
                                     numpy.arange(n))


@pytest.mark.parametrize('max_buf_len', [-1, 0, INT_MAX, INT_MAX + 5])
def test_chunked_bcast_obj_refuses_a_bad_chunk_length(comm, max_buf_len):
    # Checked before any message: every rank raises, none waits.
    with pytest.raises(AssertionError, match='max_buf_len'):
        chunked_bcast_obj(1, comm.mpi_comm, max_buf_len, 0)
    with pytest.raises(AssertionError, match='max_buf_len'):
        comm.bcast_obj(1, max_buf_len=max_buf_len)


@pytest.mark.parametrize('big', [False, True], ids=['small', 'large'])
def test_gather_obj(comm, big):
    for root in range(comm.size):
        got = comm.gather_obj(payload(comm.rank, big), root=root)
        if comm.rank != root:
            assert got is None
            continue
        assert isinstance(got, list) and len(got) == comm.size
        for r, obj in enumerate(got):
            assert_payload(obj, r, big)


def test_allreduce_obj_sums_with_plus(comm):
    ranks = range(comm.size)
    assert comm.allreduce_obj(comm.rank + 1) == sum(r + 1 for r in ranks)
    assert comm.allreduce_obj(0.5 * comm.rank) == sum(0.5 * r for r in ranks)
    assert comm.allreduce_obj([comm.rank]) == list(ranks)  # list + list: concatenation
    numpy.testing.assert_array_equal(comm.allreduce_obj(numpy.full(3, comm.rank + 1.0)),
                                     numpy.full(3, sum(r + 1.0 for r in ranks)))


@pytest.mark.parametrize('big', [False, True], ids=['small', 'large'])
def test_send_obj_recv_obj_with_tags_and_status(comm, big):
    from mpi4py import MPI
    if comm.rank == 0:
        for dest in range(1, comm.size):
            comm.send_obj(payload(dest, big), dest=dest, tag=5)
            comm.send_obj(('second', dest), dest=dest)  # default tag 0
    else:
        status = MPI.Status()
        assert_payload(comm.recv_obj(source=0, status=status), comm.rank, big)
        assert (status.Get_source(), status.Get_tag()) == (0, 5)
        assert comm.recv_obj(source=0, tag=0) == ('second', comm.rank)
