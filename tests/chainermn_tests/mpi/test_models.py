"""Models across processes: bcast_data, multi_node_mean_grad, settings, split."""
import numpy
import pytest

import chainer
import chainer.links as L
import chainermn
from chainermn_tests.mpi._mpi_util import assert_same, data

FLOATS = (numpy.float16, numpy.float32, numpy.float64)


class Model(chainer.Chain):
    """Three layers; the last is lazily initialized (``in_size=None``)."""

    def __init__(self, dtypes=(numpy.float32,) * 3):
        super().__init__()
        with self.init_scope():
            self.a = L.Linear(2, 3, initialW=chainer.initializers.Normal(dtype=dtypes[0]),
                              initial_bias=chainer.initializers.Zero(dtype=dtypes[0]))
            self.b = L.Linear(3, 4, initialW=chainer.initializers.Normal(dtype=dtypes[1]),
                              initial_bias=chainer.initializers.Zero(dtype=dtypes[1]))
            self.c = L.Linear(None, 5, initialW=chainer.initializers.Normal(dtype=dtypes[2]),
                              initial_bias=chainer.initializers.Zero(dtype=dtypes[2]))


MODELS = {f'{numpy.dtype(d).name}': (d,) * 3 for d in FLOATS}
MODELS['mixed'] = (numpy.float16, numpy.float32, numpy.float64)


def _initialized(model):
    return [(name, p) for name, p in sorted(model.namedparams()) if p.array is not None]


def _fill(model, attr, rank, salt=0):
    for i, (_, p) in enumerate(_initialized(model)):
        setattr(p, attr, data(rank, p.shape, p.dtype, salt=salt + i))


@pytest.mark.parametrize('dtypes', MODELS.values(), ids=MODELS.keys())
def test_bcast_data_copies_rank_0(any_comm, dtypes):
    model = Model(dtypes)
    _fill(model, 'array', any_comm.rank)
    arrays_before = [id(p.array) for _, p in _initialized(model)]
    any_comm.bcast_data(model)
    for i, (_, p) in enumerate(_initialized(model)):
        assert_same(p.array, data(0, p.shape, p.dtype, salt=i))
    # In place: optimizers keep references to these arrays.
    assert [id(p.array) for _, p in _initialized(model)] == arrays_before
    assert model.c.W.array is None  # uninitialized parameters are left alone


def _expected_mean(p, i, size):
    total = sum(data(r, p.shape, p.dtype, salt=i).astype(numpy.float64) for r in range(size))
    return (total / size).astype(p.dtype)


@pytest.mark.parametrize('dtypes', MODELS.values(), ids=MODELS.keys())
def test_multi_node_mean_grad_is_the_mean(any_comm, dtypes):
    model = Model(dtypes)
    for _ in range(2):  # twice: buffers are kept between calls
        _fill(model, 'grad', any_comm.rank)
        grads_before = [id(p.grad) for _, p in _initialized(model)]
        any_comm.multi_node_mean_grad(model)
        for i, (_, p) in enumerate(_initialized(model)):
            if type(any_comm).__name__ == 'DummyCommunicator':  # packs, exchanges nothing
                assert_same(p.grad, data(any_comm.rank, p.shape, p.dtype, salt=i))
            else:
                assert_same(p.grad, _expected_mean(p, i, any_comm.size))
        assert [id(p.grad) for _, p in _initialized(model)] == grads_before


def test_allreduce_grad_is_the_deprecated_name(comm):
    model = Model()
    _fill(model, 'grad', comm.rank)
    with pytest.warns(DeprecationWarning):
        comm.allreduce_grad(model)
    for i, (_, p) in enumerate(_initialized(model)):
        assert_same(p.grad, _expected_mean(p, i, comm.size))


@pytest.mark.parametrize('name', ['naive', 'flat', 'non_cuda_aware'])
def test_without_zero_fill_missing_grads_are_skipped(name):
    comm = chainermn.create_communicator(name)
    model = Model()
    _fill(model, 'grad', comm.rank)
    model.b.b.grad = None  # missing on every rank
    comm.multi_node_mean_grad(model, zero_fill=False)
    assert model.b.b.grad is None
    assert_same(model.a.W.grad, _expected_mean(model.a.W, 0, comm.size))


@pytest.mark.parametrize('name', ['naive', 'flat', 'non_cuda_aware'])
def test_zero_fill_counts_missing_grads_as_zeros(name):
    comm = chainermn.create_communicator(name)
    model = Model(MODELS['mixed'])
    for _ in range(2):
        _fill(model, 'grad', comm.rank)
        if comm.rank % 2 == 1:
            model.b.b.grad = None  # missing on odd ranks only
        comm.multi_node_mean_grad(model, zero_fill=True)
        p = model.b.b
        i = [n for n, _ in _initialized(model)].index('/b/b')
        total = sum(data(r, p.shape, p.dtype, salt=i).astype(numpy.float64)
                    for r in range(comm.size) if r % 2 == 0)
        assert_same(p.grad, (total / comm.size).astype(p.dtype))
        assert model.c.W.array is None and model.c.W.grad is None


@pytest.mark.parametrize('name', ['naive', 'flat', 'non_cuda_aware'])
def test_debug_mode_reports_diverged_gradients(name):
    comm = chainermn.create_communicator(name)
    model = Model()
    _fill(model, 'grad', comm.rank)
    if comm.rank == 0:
        model.b.W.grad[0, 0] = numpy.nan
    with chainer.using_config('debug', True):
        with pytest.raises(ValueError, match=' diverged '):
            comm.multi_node_mean_grad(model)
    comm.multi_node_mean_grad(model)  # outside debug mode, NaN is averaged silently


def test_settings(comm):
    assert comm.get_config() == {'batched_copy': True, '_within_config_scope': False}
    assert comm.batched_copy and comm.get_config('batched_copy')
    comm.set_config('batched_copy', False)
    assert not comm.batched_copy and comm.get_config('batched_copy') is False
    comm.set_config('batched_copy')
    assert comm.batched_copy
    with pytest.raises(ValueError, match='Unknown config'):
        comm.set_config('allreduce_grad_dtype', numpy.float16)
    with pytest.raises(KeyError):
        comm.get_config('no_such_setting')
    with comm.config_scope():
        assert comm.within_config_scope
        comm.extra = 'x'
    assert not comm.within_config_scope
    assert comm.get_config('extra') == 'x' and comm.extra == 'x'
    other = chainermn.create_communicator('naive', batched_copy=False)
    assert other.get_config('batched_copy') is False
    assert 'extra' not in other.get_config()  # settings are per communicator


def test_topology(comm):
    from mpi4py import MPI
    world = MPI.COMM_WORLD
    assert (comm.rank, comm.size) == (world.rank, world.size)
    assert comm.mpi_comm is world
    # One machine here: every process is on node 0.
    hosts = world.allgather(MPI.Get_processor_name())
    if len(set(hosts)) == 1:
        assert (comm.inter_rank, comm.inter_size) == (0, 1)
        assert (comm.intra_rank, comm.intra_size) == (comm.rank, comm.size)


@pytest.mark.parametrize('name', ['naive', 'flat'])
def test_split_keeps_class_and_settings(name):
    comm = chainermn.create_communicator(name, batched_copy=False)
    sub = comm.split(comm.rank % 2, -comm.rank)  # key reverses the order within a group
    members = [r for r in range(comm.size) if r % 2 == comm.rank % 2]
    assert type(sub) is type(comm)
    assert sub.size == len(members)
    assert sub.rank == sorted(members, reverse=True).index(comm.rank)
    assert sub.get_config('batched_copy') is False
    ys = sub.allgather(numpy.array([comm.rank], numpy.int32))
    assert [int(y[0]) for y in ys] == sorted(members, reverse=True)


def test_create_communicator_options(comm):
    with pytest.raises(ValueError, match='pure_nccl'):
        chainermn.create_communicator('naive', allreduce_grad_dtype=numpy.float16)
    with pytest.raises(ValueError, match='Unrecognized communicator'):
        chainermn.create_communicator('hierarchical')
    with pytest.raises(TypeError, match='unexpected keyword'):
        chainermn.create_communicator('naive', foo=1)
    for name in ('naive', 'flat', 'non_cuda_aware', 'dummy'):
        c = chainermn.create_communicator(name)
        assert type(c).__name__.lower().startswith(name.replace('_', ''))
        assert isinstance(c, chainermn.CommunicatorBase)


@pytest.fixture
def pure_nccl(monkeypatch):
    """A PureNcclCommunicator on a machine without NCCL: NCCL is only declared present, which
    is enough for its settings and for models on the CPU (they take the MPI path)."""
    from chainermn import nccl
    from chainermn.communicators.pure_nccl_communicator import PureNcclCommunicator
    if not nccl._available:
        monkeypatch.setattr(nccl, '_available', True)
        monkeypatch.setattr(nccl, 'get_build_version', lambda: 2708)
    from mpi4py import MPI
    return PureNcclCommunicator(MPI.COMM_WORLD)


# global config dtype, allreduce_grad_dtype -> dtype inside NCCL (ChainerMN's documented
# table, plus float64, see docs/differences.md)
F16, F32, F64 = numpy.float16, numpy.float32, numpy.float64
NCCL_DTYPES = [
    (chainer.mixed16, None, F16), (chainer.mixed16, F16, F16), (chainer.mixed16, F32, F32),
    (F16, None, F16), (F16, F16, F16), (F16, F32, F32),
    (F32, None, F32), (F32, F16, F16), (F32, F32, F32),
    (F64, None, F64), (F32, F64, F64),
]


@pytest.mark.parametrize('global_dtype,allreduce_grad_dtype,expected', NCCL_DTYPES)
def test_pure_nccl_transfer_dtype_table(pure_nccl, global_dtype, allreduce_grad_dtype,
                                        expected):
    pure_nccl.set_config('allreduce_grad_dtype', allreduce_grad_dtype)
    assert pure_nccl.get_config('allreduce_grad_dtype') == allreduce_grad_dtype
    assert pure_nccl.allreduce_grad_dtype == allreduce_grad_dtype
    with chainer.using_config('dtype', global_dtype):
        assert pure_nccl._transfer_dtype() == expected


def test_pure_nccl_settings_and_cpu_models(pure_nccl):
    for bad in (numpy.int32, numpy.uint8, 'float8', True):
        with pytest.raises(ValueError, match='allreduce_grad_dtype'):
            pure_nccl.set_config('allreduce_grad_dtype', bad)
    assert pure_nccl.get_config() == {'batched_copy': True, '_within_config_scope': False,
                                      'allreduce_grad_dtype': None}
    model = Model(MODELS['mixed'])
    _fill(model, 'grad', pure_nccl.rank)
    _fill(model, 'array', pure_nccl.rank, salt=50)
    pure_nccl.multi_node_mean_grad(model)
    pure_nccl.bcast_data(model)
    for i, (_, p) in enumerate(_initialized(model)):
        assert_same(p.grad, _expected_mean(p, i, pure_nccl.size))
        assert_same(p.array, data(0, p.shape, p.dtype, salt=50 + i))
    pure_nccl.finalize()
    assert pure_nccl.nccl_comm is None
