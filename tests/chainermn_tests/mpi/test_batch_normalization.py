"""MultiNodeBatchNormalization against BatchNormalization over the concatenated batch."""
import copy

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
from chainermn.links import MultiNodeBatchNormalization

TOL = {'float16': dict(rtol=2e-2, atol=2e-2), 'float32': dict(rtol=1e-4, atol=1e-5),
       'float64': dict(rtol=1e-10, atol=1e-12)}
# (x shape of one process's part, with the batch axis first; channel shape)
SHAPES = [((3, 4), (4,)), ((2, 3, 5), (3,)), ((2, 3, 2, 2), (3,)), ((2, 2, 3, 2), (2, 3))]


def parts(comm, shape, dtype, sizes=None):
    """Every rank's part of the batch (``sizes[r]`` examples), and their concatenation."""
    sizes = sizes or [shape[0]] * comm.size
    rs = numpy.random.RandomState(0)
    whole = (rs.randn(sum(sizes), *shape[1:]) * 2 + 1).astype(dtype)
    bounds = numpy.cumsum([0] + sizes)
    return [whole[bounds[r]:bounds[r + 1]] for r in range(comm.size)], whole


def run(link, x, w):
    x = chainer.Variable(x)
    y = link(x)
    F.sum(y * w).backward()
    return y, x.grad


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64],
                         ids=lambda d: numpy.dtype(d).name)
@pytest.mark.parametrize('shape,channels', SHAPES, ids=lambda s: 'x'.join(map(str, s)))
def test_equals_batch_normalization_over_the_concatenated_batch(comm, dtype, shape, channels):
    tol = TOL[numpy.dtype(dtype).name]
    xs, whole = parts(comm, shape, dtype)
    ws, w_whole = parts(comm, shape, dtype)
    mnbn = MultiNodeBatchNormalization(channels, comm, dtype=dtype)
    bn = L.BatchNormalization(channels, dtype=dtype)
    for link in (mnbn, bn):
        link.gamma.array[...] = numpy.linspace(0.5, 1.5, mnbn.gamma.size).reshape(channels)
        link.beta.array[...] = numpy.linspace(-1, 1, mnbn.beta.size).reshape(channels)
    r = comm.rank
    y, gx = run(mnbn, xs[r], ws[r])
    y_ref, gx_ref = run(bn, whole, w_whole)
    mine = slice(r * shape[0], (r + 1) * shape[0])
    assert y.dtype == dtype and gx.dtype == dtype
    numpy.testing.assert_allclose(y.array, y_ref.array[mine], **tol)
    numpy.testing.assert_allclose(gx, gx_ref[mine], **tol)
    # gamma and beta: each process holds its share; their sum is the one-process gradient.
    for name in ('gamma', 'beta'):
        total = comm.allreduce(getattr(mnbn, name).grad.astype(numpy.float64))
        numpy.testing.assert_allclose(total, getattr(bn, name).grad, **tol)
    numpy.testing.assert_allclose(mnbn.avg_mean, bn.avg_mean, **tol)
    numpy.testing.assert_allclose(mnbn.avg_var, bn.avg_var, **tol)


def test_uneven_parts_and_an_empty_one(comm):
    sizes = [0] + [r + 2 for r in range(1, comm.size)]
    xs, whole = parts(comm, (1, 3), numpy.float64, sizes)
    ws, w_whole = parts(comm, (1, 3), numpy.float64, sizes)
    mnbn = MultiNodeBatchNormalization(3, comm, dtype=numpy.float64)
    bn = L.BatchNormalization(3, dtype=numpy.float64)
    y, gx = run(mnbn, xs[comm.rank], ws[comm.rank])
    y_ref, gx_ref = run(bn, whole, w_whole)
    start = sum(sizes[:comm.rank])
    mine = slice(start, start + sizes[comm.rank])
    numpy.testing.assert_allclose(y.array, y_ref.array[mine], **TOL['float64'])
    numpy.testing.assert_allclose(gx, gx_ref[mine], **TOL['float64'])
    numpy.testing.assert_allclose(mnbn.avg_var, bn.avg_var, **TOL['float64'])


def test_test_mode_uses_the_running_averages_without_communicating(comm):
    mnbn = MultiNodeBatchNormalization(3, comm, dtype=numpy.float64)
    mnbn.avg_mean[...] = [1, 2, 3]
    mnbn.avg_var[...] = [4, 4, 4]
    x = numpy.full((2, 3), 5.)
    if comm.rank == 0:      # only one process calls it: no collective may happen
        with chainer.using_config('train', False):
            y = mnbn(x)
        numpy.testing.assert_allclose(y.array, (x - [1, 2, 3]) / numpy.sqrt(4 + 2e-5))
    comm.mpi_comm.Barrier()


def test_finetune_averages_the_batches(comm):
    mnbn = MultiNodeBatchNormalization(2, comm, dtype=numpy.float64)
    bn = L.BatchNormalization(2, dtype=numpy.float64)
    for step in range(3):
        xs, whole = parts(comm, (2, 2), numpy.float64)
        xs = [x + step for x in xs]
        mnbn(xs[comm.rank], finetune=True)
        bn(whole + step, finetune=True)
    assert mnbn.N == bn.N == 3
    numpy.testing.assert_allclose(mnbn.avg_mean, bn.avg_mean, **TOL['float64'])
    numpy.testing.assert_allclose(mnbn.avg_var, bn.avg_var, **TOL['float64'])
    mnbn.start_finetuning()
    assert mnbn.N == 0


def test_without_gamma_and_beta(comm):
    xs, whole = parts(comm, (3, 2), numpy.float64)
    mnbn = MultiNodeBatchNormalization(2, comm, dtype=numpy.float64, use_gamma=False,
                                       use_beta=False)
    assert mnbn.gamma is None and mnbn.beta is None
    bn = L.BatchNormalization(2, dtype=numpy.float64, use_gamma=False, use_beta=False)
    numpy.testing.assert_allclose(mnbn(xs[comm.rank]).array,
                                  bn(whole).array[comm.rank * 3:(comm.rank + 1) * 3])


def test_deepcopy_shares_the_communicator(comm):
    mnbn = MultiNodeBatchNormalization(3, comm)
    clone = copy.deepcopy(mnbn)
    assert clone.comm is comm
    assert clone.gamma is not mnbn.gamma
    numpy.testing.assert_array_equal(clone.gamma.array, mnbn.gamma.array)


def test_communication_backends(comm):
    from chainermn.functions.batch_normalization import get_communication_backend
    assert get_communication_backend(comm) == 'mpi'
    assert get_communication_backend(comm, 'mpi') == 'mpi'
    with pytest.raises(ValueError, match='nccl is not supported'):
        MultiNodeBatchNormalization(3, comm, communication_backend='nccl')
    with pytest.raises(ValueError, match='does not support foo'):
        get_communication_backend(comm, 'foo')


class Net(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l = L.Linear(3, 4)
            self.bn = L.BatchNormalization(4, decay=0.5, eps=1e-3)
            self.inner = chainer.ChainList(L.BatchNormalization(4), L.Linear(4, 2))

    def forward(self, x):
        return self.inner[1](self.inner[0](self.bn(self.l(x))))


MODELS = {
    'chain': Net,
    'chainlist': lambda: chainer.ChainList(L.Linear(3, 4), L.BatchNormalization(4)),
    'sequential': lambda: chainer.Sequential(L.Linear(3, 4), L.BatchNormalization(4), F.relu,
                                             L.Linear(4, 2)),
    'batch_normalization': lambda: L.BatchNormalization(3),
}


@pytest.mark.parametrize('name', MODELS)
def test_create_mnbn_model(comm, name):
    numpy.random.seed(0)
    model = MODELS[name]()
    for link in model.links():
        if isinstance(link, L.BatchNormalization):
            link.avg_mean[...] = 7
            link.gamma.array[...] = 3
    mn = chainermn.links.create_mnbn_model(model, comm)
    kinds = [type(link).__name__ for link in mn.links()]
    assert 'BatchNormalization' not in kinds
    assert kinds.count('MultiNodeBatchNormalization') == \
        [type(link).__name__ for link in model.links()].count('BatchNormalization')
    # Same parameters (copied, not shared) and statistics; the original is unchanged.
    for (path, p), (path2, q) in zip(sorted(mn.namedparams()), sorted(model.namedparams())):
        assert path == path2 and p is not q
        numpy.testing.assert_array_equal(p.array, q.array)
    for link in mn.links():
        if isinstance(link, MultiNodeBatchNormalization):
            assert (link.avg_mean == 7).all() and link.comm is comm
    if name == 'chain':
        assert (mn.bn.decay, mn.bn.eps) == (0.5, 1e-3)
    # The copy runs, and its result is the original's on the concatenated batch.
    if name in ('chain', 'sequential'):
        rs = numpy.random.RandomState(1)
        whole = rs.randn(2 * comm.size, 3).astype(numpy.float32)
        y = mn(whole[2 * comm.rank:2 * comm.rank + 2])
        numpy.testing.assert_allclose(
            y.array, model(whole).array[2 * comm.rank:2 * comm.rank + 2], rtol=1e-4, atol=1e-5)
