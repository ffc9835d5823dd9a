"""Data-parallel training: the multi-node optimizer against one process on the whole batch."""
import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
from chainer.training import extensions

N_STEPS, LOCAL_BATCH, N_IN, N_OUT = 5, 4, 6, 3


class MLP(chainer.Chain):
    def __init__(self, n_in=N_IN):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, 8)
            self.l2 = L.Linear(8, 8)
            self.l3 = L.Linear(8, N_OUT)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.tanh(self.l1(x)))))


def make_model(seed, n_in=N_IN):
    numpy.random.seed(seed)
    with chainer.using_config('dtype', numpy.float64):
        return L.Classifier(MLP(n_in))


def batches(size):
    rs = numpy.random.RandomState(0)
    xs = rs.randn(N_STEPS, size * LOCAL_BATCH, N_IN)
    ts = rs.randint(0, N_OUT, (N_STEPS, size * LOCAL_BATCH)).astype(numpy.int32)
    return xs, ts


@pytest.mark.parametrize('name', ['naive', 'flat', 'non_cuda_aware'])
def test_sgd_float64_equals_one_process_on_the_concatenated_batch(name):
    comm = chainermn.create_communicator(name)
    xs, ts = batches(comm.size)
    mine = slice(comm.rank * LOCAL_BATCH, (comm.rank + 1) * LOCAL_BATCH)

    # Each rank starts from different parameters: the first update makes them rank 0's.
    model = make_model(seed=100 + comm.rank)
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.SGD(lr=0.1), comm)
    assert optimizer.setup(model) is optimizer
    optimizer.update()
    assert optimizer.t == 0
    for step in range(N_STEPS):
        optimizer.update(model, xs[step, mine], ts[step, mine])
    assert optimizer.t == N_STEPS

    single = make_model(seed=100)
    reference = chainer.optimizers.SGD(lr=0.1)
    reference.setup(single)
    for step in range(N_STEPS):
        reference.update(single, xs[step], ts[step])

    got = dict(model.namedparams())
    for path, p in single.namedparams():
        assert got[path].dtype == numpy.float64
        numpy.testing.assert_allclose(got[path].array, p.array, rtol=1e-10, atol=1e-12,
                                      err_msg=path)


def test_multi_node_optimizer_wraps_the_actual_one(comm):
    actual = chainer.optimizers.MomentumSGD(lr=0.01)
    optimizer = chainermn.create_multi_node_optimizer(actual, comm)
    optimizer.lr = 0.5  # attributes go to the wrapped optimizer
    assert actual.lr == 0.5 and optimizer.lr == 0.5
    model = make_model(seed=comm.rank)
    optimizer.setup(model)
    assert optimizer.target is model and actual.target is model
    with pytest.raises(ValueError, match='double buffering'):
        chainermn.create_multi_node_optimizer(actual, comm, double_buffering=True)


def test_new_and_lazily_initialized_links_are_broadcast_first(comm):
    model = make_model(seed=comm.rank)
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.SGD(), comm)
    optimizer.setup(model)
    optimizer.update()  # broadcast, no update
    with model.init_scope(), chainer.using_config('dtype', numpy.float64):
        model.extra = L.Linear(None, 2)  # uninitialized on every rank
    model.extra(numpy.random.RandomState(comm.rank).randn(1, 3))  # initialized differently
    model.cleargrads()
    optimizer.update()  # the model changed: broadcast again, no update
    assert optimizer.t == 0
    ws = comm.allgather(model.extra.W.array)
    for w in ws:
        numpy.testing.assert_array_equal(w, ws[0])
    for _, p in model.namedparams():
        p.grad = numpy.full_like(p.array, comm.rank)
    optimizer.update()
    assert optimizer.t == 1
    expected = (comm.size - 1) / 2
    for _, p in model.namedparams():
        numpy.testing.assert_allclose(p.grad, numpy.full_like(p.array, expected))


def test_multi_node_evaluator_averages_over_processes(comm):
    model = make_model(seed=0)
    rs = numpy.random.RandomState(comm.rank)
    n = 3 + 2 * comm.rank
    dataset = chainer.datasets.TupleDataset(rs.randn(n, N_IN),
                                            rs.randint(0, N_OUT, n).astype(numpy.int32))
    local = extensions.Evaluator(
        chainer.iterators.SerialIterator(dataset, 4, repeat=False, shuffle=False), model)
    local_result = local()
    evaluator = chainermn.create_multi_node_evaluator(extensions.Evaluator(
        chainer.iterators.SerialIterator(dataset, 4, repeat=False, shuffle=False), model), comm)
    result = evaluator()
    all_local = comm.gather_obj(local_result)
    all_local = comm.bcast_obj(all_local)
    assert sorted(result) == ['main/accuracy', 'main/loss']
    for key, value in result.items():
        assert isinstance(value, numpy.float64)
        numpy.testing.assert_allclose(value, numpy.mean([float(d[key]) for d in all_local]),
                                      rtol=1e-12)


def test_multi_node_evaluator_with_an_empty_shard(comm):
    model = make_model(seed=0)
    n = 0 if comm.rank == comm.size - 1 else 4
    rs = numpy.random.RandomState(comm.rank)
    dataset = chainer.datasets.TupleDataset(rs.randn(n, N_IN),
                                            rs.randint(0, N_OUT, n).astype(numpy.int32))
    evaluator = chainermn.create_multi_node_evaluator(extensions.Evaluator(
        chainer.iterators.SerialIterator(dataset, 4, repeat=False, shuffle=False), model), comm)
    result = evaluator()
    assert sorted(result) == ['main/accuracy', 'main/loss']
    assert all(numpy.isfinite(v) for v in result.values())
