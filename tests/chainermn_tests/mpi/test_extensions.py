"""The multi-node trainer extensions: evaluators, aggregation, persistents, early stopping,
snapshots and checkpoints."""
import os

import numpy
import pytest

import chainer
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extension
from chainer.training import extensions
from chainermn.extensions import GenericMultiNodeEvaluator

N_IN, N_OUT = 3, 2


def shared_dir(comm, tmp_path_factory, name):
    """A folder every rank uses (rank 0's temporary one)."""
    path = str(tmp_path_factory.mktemp(name)) if comm.rank == 0 else None
    return comm.bcast_obj(path)


def dataset(n, seed=0):
    rs = numpy.random.RandomState(seed)
    return chainer.datasets.TupleDataset(rs.randn(n, N_IN),
                                         rs.randint(0, N_OUT, n).astype(numpy.int32))


def classifier(seed=0):
    numpy.random.seed(seed)
    with chainer.using_config('dtype', numpy.float64):
        return L.Classifier(L.Linear(N_IN, N_OUT))


def test_multi_node_evaluator_equals_one_process_over_the_whole_dataset(comm):
    whole = dataset(6 * comm.size)
    mine = chainermn.scatter_dataset(whole if comm.rank == 0 else None, comm)
    model = classifier()
    evaluator = chainermn.create_multi_node_evaluator(
        extensions.Evaluator(chainer.iterators.SerialIterator(mine, 3, repeat=False,
                                                              shuffle=False), model), comm)
    result = evaluator()
    reference = extensions.Evaluator(chainer.iterators.SerialIterator(
        whole, 3, repeat=False, shuffle=False), classifier())()
    assert sorted(result) == sorted(reference) == ['main/accuracy', 'main/loss']
    for key in reference:
        numpy.testing.assert_allclose(result[key], reference[key], rtol=1e-12)


class SumCount(GenericMultiNodeEvaluator):
    def calc_local(self, x, t):
        return float(x.sum()), len(x), self.comm.rank

    def aggregate(self, results):
        return {'mean': sum(s for s, _, _ in results) / sum(c for _, c, _ in results),
                'order': [r for _, _, r in results]}


def test_generic_evaluator_aggregates_every_process_result_on_the_root(comm):
    # Rank r holds r + 2 examples in batches of 2, so the ranks have different batch counts.
    local = dataset(comm.rank + 2, seed=comm.rank)
    root = comm.size - 1
    evaluator = SumCount(comm, chainer.iterators.SerialIterator(local, 2, repeat=False),
                         classifier(), root=root)
    assert (evaluator.trigger, evaluator.priority, evaluator.default_name) == \
        ((1, 'epoch'), extension.PRIORITY_WRITER, 'validation')
    for _ in range(2):      # the iterator is reset each time
        result = evaluator(None)
        if comm.rank != root:
            assert result is None
            continue
        everything = [dataset(r + 2, seed=r)._datasets[0] for r in range(comm.size)]
        assert result['mean'] == pytest.approx(
            sum(x.sum() for x in everything) / sum(len(x) for x in everything))
        n_batches = [(r + 3) // 2 for r in range(comm.size)]
        assert result['order'] == [r for b in range(max(n_batches)) for r in range(comm.size)
                                   if b < n_batches[r]]


def test_generic_evaluator_with_an_empty_process(comm):
    local = dataset(0 if comm.rank == 0 else 4)
    result = SumCount(comm, chainer.iterators.SerialIterator(local, 2, repeat=False),
                      classifier())(None)
    if comm.rank == 0:
        assert result['order'] == [r for b in range(2) for r in range(1, comm.size)]


def run_trainer(comm, extend, n_iterations=4, out='result', stop_trigger=None):
    model = classifier()
    opt = chainermn.create_multi_node_optimizer(chainer.optimizers.SGD(), comm)
    opt.setup(model)
    it = chainer.iterators.SerialIterator(dataset(8, seed=comm.rank), 2)
    trainer = training.Trainer(training.StandardUpdater(it, opt),
                               stop_trigger or (n_iterations, 'iteration'), out=out)
    extend(trainer)
    trainer.run()
    return trainer


@pytest.mark.parametrize('interval', [1, 2])
@pytest.mark.parametrize('as_variable', [False, True])
def test_observation_aggregator_averages_over_processes_and_iterations(comm, interval,
                                                                       as_variable):
    seen = {}

    @extension.make_extension(trigger=(1, 'iteration'), priority=extension.PRIORITY_WRITER)
    def report(trainer):
        value = numpy.float64(trainer.updater.iteration * 10 + comm.rank)
        trainer.observation['v'] = chainer.Variable(numpy.asarray(value)) if as_variable \
            else value

    @extension.make_extension(trigger=(1, 'iteration'), priority=extension.PRIORITY_READER)
    def read(trainer):
        seen[trainer.updater.iteration] = trainer.observation.get('v-mean')

    def extend(trainer):
        trainer.extend(report)
        trainer.extend(chainermn.extensions.ObservationAggregator(
            comm, 'v', 'v-mean', comm_trigger=(interval, 'iteration')))
        trainer.extend(read)

    run_trainer(comm, extend)
    rank_mean = (comm.size - 1) / 2
    for i in range(1, 5):
        if i % interval:
            assert seen[i] is None
            continue
        expected = numpy.mean([j * 10 for j in range(i - interval + 1, i + 1)]) + rank_mean
        value = seen[i]
        if as_variable:
            assert isinstance(value, chainer.Variable)
            value = value.array
        assert float(value) == pytest.approx(expected)


def test_observation_aggregator_with_a_custom_aggregator_and_a_missing_key(comm):
    calls = []

    def aggregator(histories):
        calls.append(histories)
        return 'done'

    @extension.make_extension(trigger=(1, 'iteration'), priority=extension.PRIORITY_WRITER)
    def report(trainer):
        if comm.rank == 0:
            trainer.observation['v'] = trainer.updater.iteration

    seen = []

    def extend(trainer):
        trainer.extend(report)
        trainer.extend(chainermn.extensions.ObservationAggregator(comm, 'v', aggregator=aggregator))
        trainer.extend(chainermn.extensions.ObservationAggregator(comm, 'missing'))
        trainer.extend(lambda t: seen.append((t.observation.get('v'),
                                              t.observation.get('missing'))),
                       trigger=(1, 'iteration'), priority=extension.PRIORITY_READER)

    run_trainer(comm, extend, n_iterations=2)
    assert seen == [('done', None), ('done', None)]
    if comm.rank == 0:
        assert calls == [[[1]] + [[]] * (comm.size - 1), [[2]] + [[]] * (comm.size - 1)]
    else:
        assert calls == []


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_allreduce_persistent_averages_float_persistents(comm, dtype):
    model = chainer.Sequential(L.BatchNormalization(3, dtype=dtype),
                               L.BatchNormalization(2, dtype=numpy.float64))
    model[0].avg_mean[...] = comm.rank
    model[1].avg_var[...] = 2 * comm.rank
    model[0].N = comm.rank
    ext = chainermn.extensions.AllreducePersistent(model, comm)
    assert (ext.trigger, ext.priority) == ((1, 'epoch'), extension.PRIORITY_WRITER + 1)
    ext()
    assert model[0].avg_mean.dtype == dtype
    numpy.testing.assert_allclose(model[0].avg_mean, (comm.size - 1) / 2)
    numpy.testing.assert_allclose(model[1].avg_var, comm.size - 1)
    numpy.testing.assert_allclose(model[0].avg_var, 1)
    assert model[0].N == comm.rank    # counters are left alone


def test_early_stopping_stops_every_process_on_the_averaged_value(comm):
    # Each rank's loss is lowest at a different iteration; their mean decides.
    def loss(i, r):
        return float((i - 4 - 2 * r) ** 2)

    @extension.make_extension(trigger=(1, 'iteration'), priority=extension.PRIORITY_WRITER)
    def report(trainer):
        trainer.observation['main/loss'] = loss(trainer.updater.iteration, comm.rank)

    stop = chainermn.extensions.MultiNodeEarlyStoppingTrigger(
        comm, check_trigger=(1, 'iteration'), patience=2, max_trigger=(50, 'iteration'))
    assert stop.get_training_length() == (50, 'iteration')
    trainer = run_trainer(comm, lambda t: t.extend(report), stop_trigger=stop)

    best, count, expected = float('inf'), 0, None
    for i in range(1, 50):
        value = numpy.mean([loss(i, r) for r in range(comm.size)])
        best, count = (value, 0) if value < best else (best, count + 1)
        if count >= 2:
            expected = i
            break
    assert trainer.updater.iteration == expected
    assert stop._stop_condition()


def test_multi_node_snapshot_writes_once_per_replica_set_and_autoloads(comm, tmp_path_factory):
    out = shared_dir(comm, tmp_path_factory, 'snap')
    replica_sets = [[0, 1]]     # with 3 processes, rank 2 forms its own set

    def extend(trainer):
        snapshot = extensions.snapshot(filename='snap_{.updater.iteration}', autoload=True)
        trainer.extend(chainermn.extensions.multi_node_snapshot(comm, snapshot, replica_sets),
                       trigger=(2, 'iteration'))

    trainer = run_trainer(comm, extend, out=out)
    comm.mpi_comm.Barrier()
    masters = [0] + ([2] if comm.size > 2 else [])
    expected = {f'snap_{i}.{r}' for i in (2, 4) for r in masters}
    assert {f for f in os.listdir(out) if f.startswith('snap_')} == expected
    # A new run: the masters load their newest snapshot, and send it to their replicas.
    model_params = [p.array.copy() for _, p in sorted(trainer.updater.get_optimizer(
        'main').target.namedparams())]
    resumed = run_trainer(comm, extend, n_iterations=4, out=out)
    assert resumed.updater.iteration == 4
    for (_, p), q in zip(sorted(resumed.updater.get_optimizer('main').target.namedparams()),
                         model_params):
        numpy.testing.assert_array_equal(p.array, q)


def test_multi_node_snapshot_calls_the_snapshot_on_masters_only(comm):
    calls = []

    class Snapshot(extension.Extension):
        filename = 'x'
        autoload = False

        def __call__(self, trainer):
            calls.append('call')

        def initialize(self, trainer):
            calls.append('initialize')

        def finalize(self):
            calls.append('finalize')

    mn = chainermn.extensions.multi_node_snapshot(comm, Snapshot(), [])
    mn.initialize(None)
    mn(None)
    mn.finalize()
    assert mn.is_master == (comm.rank == 0)
    assert calls == (['initialize', 'call', 'finalize'] if comm.rank == 0 else [])
    assert mn.snapshot.filename == f'x.{comm.rank}'


# -- the checkpointer ---------------------------------------------------------------------

def checkpointed_run(comm, out, n_iterations, crash_at=None, cp_interval=2, gc_interval=4):
    """Trains with a checkpointer (every iteration); ``crash_at``: raise after that
    iteration's checkpoint. Returns (trainer, checkpointer, resumed iteration)."""
    numpy.random.seed(0)
    model = classifier()
    opt = chainermn.create_multi_node_optimizer(chainer.optimizers.Adam(), comm)
    opt.setup(model)
    numpy.random.seed(comm.rank)
    it = chainer.iterators.SerialIterator(dataset(10, seed=comm.rank), 3, shuffle=True)
    trainer = training.Trainer(training.StandardUpdater(it, opt), (n_iterations, 'iteration'),
                               out=out)
    checkpointer = chainermn.create_multi_node_checkpointer('cp', comm, cp_interval=cp_interval,
                                                            gc_interval=gc_interval)
    resumed = checkpointer.maybe_load(trainer, opt)
    trainer.extend(checkpointer, trigger=(1, 'iteration'))
    if crash_at is not None:
        @extension.make_extension(trigger=(1, 'iteration'), priority=-1000)
        def crash(t):
            if t.updater.iteration == crash_at:
                raise RuntimeError('crash')
        trainer.extend(crash)
        with pytest.raises(RuntimeError, match='crash'):
            trainer.run()
    else:
        trainer.run()
    return trainer, checkpointer, resumed


def own_iterations(comm, out):
    return sorted(int(f.split('.')[2]) for f in os.listdir(out)
                  if f.startswith(f'cp.{comm.rank}.'))


def params(trainer):
    model = trainer.updater.get_optimizer('main').target
    return [p.array.copy() for _, p in sorted(model.namedparams())]


def test_checkpointer_resumes_from_the_newest_common_checkpoint(comm, tmp_path_factory):
    out = shared_dir(comm, tmp_path_factory, 'cp')
    _, checkpointer, resumed = checkpointed_run(comm, out, 10, crash_at=6)
    assert resumed is None
    # The removal at the 4th checkpoint kept the 2 newest common ones; a failed run keeps
    # its checkpoints.
    assert own_iterations(comm, out) == [3, 4, 5, 6]
    assert 'Snapshot duration stats' in checkpointer.get_stats()
    comm.mpi_comm.Barrier()
    if comm.rank == comm.size - 1:      # as if it had been killed before its 6th checkpoint
        os.remove(os.path.join(out, f'cp.{comm.rank}.6'))
    comm.mpi_comm.Barrier()
    trainer, _, resumed = checkpointed_run(comm, out, 10)
    assert resumed == 5 and trainer.updater.iteration == 10
    assert own_iterations(comm, out) == []     # a run that ends normally removes them
    reference, _, _ = checkpointed_run(comm, shared_dir(comm, tmp_path_factory, 'ref'), 10)
    for p, q in zip(params(trainer), params(reference)):
        numpy.testing.assert_array_equal(p, q)


def test_checkpointer_skips_a_checkpoint_that_cannot_be_read(comm, tmp_path_factory):
    out = shared_dir(comm, tmp_path_factory, 'cp_bad')
    checkpointed_run(comm, out, 10, crash_at=4, gc_interval=100)
    comm.mpi_comm.Barrier()
    if comm.rank == 0:
        with open(os.path.join(out, 'cp.0.4'), 'wb') as f:
            f.write(b'not a checkpoint')
    comm.mpi_comm.Barrier()
    numpy.random.seed(0)
    trainer = training.Trainer(training.StandardUpdater(
        chainer.iterators.SerialIterator(dataset(10), 3),
        chainermn.create_multi_node_optimizer(chainer.optimizers.Adam(), comm).setup(
            classifier())), (10, 'iteration'), out=out)
    checkpointer = chainermn.create_multi_node_checkpointer('cp', comm)
    assert checkpointer.maybe_load(trainer) == 3
    assert trainer.updater.iteration == 3
    # The checkpoints after the one loaded belong to the abandoned run: removed.
    assert own_iterations(comm, out) == [1, 2, 3]


def test_checkpoint_file_names(comm):
    checkpointer = chainermn.create_multi_node_checkpointer('run.a', comm)
    assert checkpointer._filename(12) == f'run.a.{comm.rank}.12'
    assert checkpointer._parse_filename('run.a.1.7') == ('run.a', 1, 7)
    assert checkpointer._parse_filename('run.b.1.7') is None
    assert checkpointer._parse_filename('.run.a.1.7.abc.tmp') is None
