"""chainermn.functions against their NumPy definitions: values and gradients.

Each rank contributes ``data(rank, ...)`` and weighs what it receives by ``weight(rank, ...)``
in its loss; the total loss is the sum over the ranks, so every rank can compute the expected
outputs and the expected gradient of its inputs for any number of processes.
"""
import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
import chainermn.functions as MF
from chainermn_tests.mpi._mpi_util import data

FLOATS = (numpy.float16, numpy.float32, numpy.float64)
SHAPES = ((), (3,), (2, 0), (2, 3))
GRID = list(itertools.product(FLOATS, SHAPES))
GRID_IDS = [f'{numpy.dtype(d).name}-{"x".join(map(str, s)) or "scalar"}' for d, s in GRID]
TOL = {'float16': dict(rtol=1e-2, atol=1e-2), 'float32': dict(rtol=1e-5, atol=1e-5),
       'float64': dict(rtol=1e-12, atol=1e-12)}


def weight(receiver, sender, shape, dtype):
    """What the receiving rank multiplies the sender's variable by in its loss."""
    return data(100 + receiver, shape, dtype, salt=7 + sender)


def variable(rank, shape, dtype, salt=0):
    return chainer.Variable(data(rank, shape, dtype, salt))


def loss_of(pairs):
    """``sum(w * y)`` over ``(w, y)`` pairs (a 0-d variable)."""
    terms = [F.sum(y * w) for w, y in pairs]
    total = terms[0]
    for t in terms[1:]:
        total = total + t
    return total


def check(actual, expected, dtype):
    numpy.testing.assert_allclose(numpy.asarray(actual, numpy.float64),
                                  numpy.asarray(expected, numpy.float64),
                                  **TOL[numpy.dtype(dtype).name])


@pytest.mark.parametrize('dtype,shape', GRID, ids=GRID_IDS)
def test_allgather(comm, dtype, shape):
    r, n = comm.rank, comm.size
    x = variable(r, shape, dtype)
    ys = MF.allgather(comm, x)
    assert len(ys) == n
    for j, y in enumerate(ys):
        assert y.dtype == dtype and y.shape == shape
        check(y.array, data(j, shape, dtype), dtype)
    loss_of([(weight(r, j, shape, dtype), y) for j, y in enumerate(ys)]).backward()
    check(x.grad, sum(weight(k, r, shape, dtype).astype(numpy.float64) for k in range(n)), dtype)


@pytest.mark.parametrize('dtype,shape', GRID, ids=GRID_IDS)
def test_alltoall(comm, dtype, shape):
    r, n = comm.rank, comm.size
    # rank r sends its xs[j] (salt j) to rank j
    xs = [variable(r, shape, dtype, salt=j) for j in range(n)]
    ys = MF.alltoall(comm, xs)
    for j, y in enumerate(ys):
        check(y.array, data(j, shape, dtype, salt=r), dtype)
    loss_of([(weight(r, j, shape, dtype), y) for j, y in enumerate(ys)]).backward()
    for j, x in enumerate(xs):
        check(x.grad, weight(j, r, shape, dtype), dtype)


@pytest.mark.parametrize('dtype,shape', GRID, ids=GRID_IDS)
def test_bcast_from_every_root(comm, dtype, shape):
    r, n = comm.rank, comm.size
    for root in range(n):
        x = variable(root, shape, dtype) if r == root else None
        y = MF.bcast(comm, x, root=root)
        check(y.array, data(root, shape, dtype), dtype)
        loss_of([(weight(r, root, shape, dtype), y)]).backward()
        if r == root:
            check(x.grad, sum(weight(k, root, shape, dtype).astype(numpy.float64)
                              for k in range(n)), dtype)


@pytest.mark.parametrize('dtype,shape', GRID, ids=GRID_IDS)
def test_gather_to_every_root(comm, dtype, shape):
    r, n = comm.rank, comm.size
    for root in range(n):
        x = variable(r, shape, dtype)
        ys = MF.gather(comm, x, root=root)
        if r == root:
            assert len(ys) == n
            for j, y in enumerate(ys):
                check(y.array, data(j, shape, dtype), dtype)
            loss_of([(weight(root, j, shape, dtype), y) for j, y in enumerate(ys)]).backward()
        else:
            assert ys.shape == (0,)     # a delegate variable
            ys.backward()
        check(x.grad, weight(root, r, shape, dtype), dtype)


@pytest.mark.parametrize('dtype,shape', GRID, ids=GRID_IDS)
def test_scatter_from_every_root(comm, dtype, shape):
    r, n = comm.rank, comm.size
    for root in range(n):
        xs = [variable(root, shape, dtype, salt=j) for j in range(n)] if r == root else None
        y = MF.scatter(comm, xs, root=root)
        check(y.array, data(root, shape, dtype, salt=r), dtype)
        loss_of([(weight(r, root, shape, dtype), y)]).backward()
        if r == root:
            for j, x in enumerate(xs):
                check(x.grad, weight(j, root, shape, dtype), dtype)


@pytest.mark.parametrize('dtype,shape', GRID, ids=GRID_IDS)
def test_send_recv_around_a_ring(comm, dtype, shape):
    # Every rank sends to the next one and receives from the previous one; rank 0 sends
    # first, the others receive first, so the ring never waits on itself.
    r, n = comm.rank, comm.size
    nxt, prv = (r + 1) % n, (r - 1) % n
    x = variable(r, shape, dtype)
    if r == 0:
        phi = MF.send(x, comm, nxt)
        y = MF.recv(comm, prv, delegate_variable=phi)
        loss = loss_of([(weight(r, prv, shape, dtype), y)])
    else:
        y = MF.recv(comm, prv)
        phi = MF.send(x, comm, nxt)
        loss, = MF.pseudo_connect(phi, loss_of([(weight(r, prv, shape, dtype), y)]))
    check(y.array, data(prv, shape, dtype), dtype)
    loss.backward()
    check(x.grad, weight(nxt, r, shape, dtype), dtype)


def test_send_recv_tuples_and_force_tuple(comm):
    r, n = comm.rank, comm.size
    if r > 1:
        return
    xs = (variable(r, (2, 3), numpy.float32), variable(r, (4,), numpy.float32, salt=1))
    if r == 0:
        MF.send(xs, comm, 1, tag=5).backward()
        assert numpy.array_equal(xs[0].grad, numpy.full((2, 3), 2, numpy.float32))
        assert numpy.array_equal(xs[1].grad, numpy.zeros(4, numpy.float32))   # unused there
        MF.send(xs[0], comm, 1).backward()
        assert numpy.array_equal(xs[0].grad, numpy.full((2, 3), 3, numpy.float32))
    else:
        ys = MF.recv(comm, 0, tag=5)
        assert isinstance(ys, tuple) and [y.shape for y in ys] == [(2, 3), (4,)]
        assert numpy.array_equal(ys[1].array, data(0, (4,), numpy.float32, salt=1))
        F.sum(ys[0] * 2).backward()     # ys[1] gets no gradient: zeros go back
        y, = MF.recv(comm, 0, force_tuple=True)
        F.sum(y).backward()


def test_pseudo_connect_passes_values_and_gives_the_delegate_zeros():
    delegate = chainer.Variable(numpy.ones((2, 2)))
    x = chainer.Variable(numpy.arange(3.))
    y, z = MF.pseudo_connect(delegate, x, numpy.ones(2, numpy.float32))
    assert numpy.array_equal(y.array, x.array) and z.dtype == numpy.float32
    F.sum(y * 2).backward()
    assert numpy.array_equal(x.grad, numpy.full(3, 2.))
    assert numpy.array_equal(delegate.grad, numpy.zeros((2, 2)))
    assert MF.pseudo_connect(None) == ()
    w, = MF.pseudo_connect(None, x)
    assert w.creator is not None


def test_collectives_are_differentiable_twice(comm):
    # gx of allgather is an alltoall of the gradients: its own backward is another one.
    r, n = comm.rank, comm.size
    x = variable(r, (3,), numpy.float64)
    ys = MF.allgather(comm, x)
    loss = loss_of([(weight(r, j, (3,), numpy.float64), y * y) for j, y in enumerate(ys)])
    gx, = chainer.grad([loss], [x], enable_double_backprop=True)
    w_sum = sum(weight(k, r, (3,), numpy.float64) for k in range(n))
    check(gx.array, 2 * w_sum * x.array, numpy.float64)
    v = data(50 + r, (3,), numpy.float64)
    x.cleargrad()
    F.sum(gx * v).backward()
    check(x.grad, 2 * w_sum * v, numpy.float64)


BAD_CALLS = [
    (lambda c: MF.send(chainer.Variable(numpy.ones(1)), c, c.rank), ValueError, 'own rank'),
    (lambda c: MF.send(chainer.Variable(numpy.ones(1)), c, c.size), ValueError, 'rank'),
    (lambda c: MF.recv(c, 1.5), TypeError, 'int'),
    (lambda c: MF.alltoall(c, [chainer.Variable(numpy.ones(1))] * (c.size + 1)), ValueError,
     'communicator size'),
    (lambda c: MF.bcast(c, chainer.Variable(numpy.ones(1)), root=-1), ValueError, 'root'),
]


@pytest.mark.parametrize('call,error,match', BAD_CALLS)
def test_bad_calls_fail_on_the_caller_before_communicating(comm, call, error, match):
    with pytest.raises(error, match=match):
        call(comm)
