"""A trainer saved mid-run and loaded into a fresh one carries on exactly as the run that was
never saved: parameters, logs, learning rates and what extensions gather, with dropout and
shuffling (the snapshot restores NumPy's global generator), for each kind of iterator and
extension whose state a resume could lose, in both file formats."""
import os

import numpy
import pytest

import chainer
from chainer import functions as F
from chainer import links as L
from chainer import serializers
from chainer import training
from chainer.training import extensions as E

TOTAL, SAVE_AT = 11, 6   # 4 iterations an epoch: saved mid-epoch


class _Net(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 5)
            self.l2 = L.Linear(5, 2)

    def forward(self, x, t):
        h = F.dropout(F.relu(self.l1(x)), 0.4)
        y = self.l2(h)
        loss = F.softmax_cross_entropy(y, t)
        correct = float((y.array.argmax(axis=1) == t).sum())
        chainer.report({'loss': loss, 'correct': correct, 'total': float(len(t))}, self)
        return loss


def _data():
    rs = numpy.random.RandomState(2)
    return chainer.datasets.TupleDataset(rs.uniform(-1, 1, (16, 3)).astype(numpy.float32),
                                         rs.randint(0, 2, 16).astype(numpy.int32))


def _iterator(kind):
    if kind == 'serial':
        return chainer.iterators.SerialIterator(_data(), 4)
    if kind == 'thread':
        return chainer.iterators.MultithreadIterator(_data(), 4, n_threads=2)
    return chainer.iterators.MultiprocessIterator(_data(), 4, n_processes=1)


EXTENSIONS = {
    'MultistepShift': lambda net: (E.MultistepShift('lr', 0.5, [3, 8], 0.1),
                                   {'trigger': (1, 'iteration')}),
    'WarmupShift': lambda net: (E.WarmupShift('lr', 0.01, 4, 0.1), {'trigger': (1, 'iteration')}),
    'ExponentialShift': lambda net: (E.ExponentialShift('lr', 0.9),
                                     {'trigger': (1, 'iteration')}),
    'ParameterStatistics': lambda net: (E.ParameterStatistics(net.l1, trigger=(4, 'iteration')),
                                        {}),
    'MicroAverage': lambda net: (E.MicroAverage('main/correct', 'main/total', 'main/micro',
                                                trigger=(4, 'iteration')), {}),
    'PrintReport': lambda net: (E.PrintReport(['main/loss'], log_report=E.LogReport(
        trigger=(2, 'iteration'), log_name=None), out=open(os.devnull, 'w')), {}),
}


def _trainer(out, kind='serial', extension=None, updater='standard', seed=0):
    numpy.random.seed(seed)
    net = _Net()
    optimizer = chainer.optimizers.MomentumSGD(lr=0.1)
    optimizer.setup(net)
    iterator = _iterator(kind)
    if updater == 'parallel':
        updater = training.updaters.ParallelUpdater(iterator, optimizer,
                                                    devices={'main': -1, 'second': -1})
    else:
        updater = training.updaters.StandardUpdater(iterator, optimizer)
    trainer = training.Trainer(updater, (TOTAL, 'iteration'), out=str(out))
    trainer.extend(E.LogReport(trigger=(1, 'iteration'), log_name=None))
    trainer.extend(E.observe_lr(), trigger=(1, 'iteration'))
    if extension is not None:
        made, kwargs = EXTENSIONS[extension](net)
        trainer.extend(made, **kwargs)
    return trainer, net


def _outcome(trainer, net):
    log = [{k: v for k, v in entry.items() if k != 'elapsed_time'}
           for entry in trainer.get_extension('LogReport').log]
    for name in ('PrintReport',):
        if name in trainer._extensions:
            log.append(trainer.get_extension(name)._log_report.log[-1]['main/loss'])
    return ({name: p.array.copy() for name, p in net.namedparams()}, log,
            numpy.random.random_sample())


def _run(tmp_path, fmt, **kwargs):
    save = serializers.save_npz if fmt == 'npz' else serializers.save_hdf5
    load = serializers.load_npz if fmt == 'npz' else serializers.load_hdf5
    path = str(tmp_path / ('snapshot.' + fmt))

    full, net = _trainer(tmp_path / 'full', **kwargs)
    full.extend(lambda t: save(path, t) if t.updater.iteration == SAVE_AT else None,
                name='save', trigger=(1, 'iteration'), priority=-1000)
    full.run()
    expected = _outcome(full, net)
    full.updater.get_iterator('main').finalize()

    # Another process: built from another seed, then loaded.
    resumed, net = _trainer(tmp_path / 'resumed', seed=1, **kwargs)
    load(path, resumed)
    resumed.run()
    got = _outcome(resumed, net)
    resumed.updater.get_iterator('main').finalize()
    return got, expected


def _assert_same(got, expected):
    params, log, draw = got
    for name, array in expected[0].items():
        numpy.testing.assert_array_equal(params[name], array, err_msg=name)
    assert log == expected[1]
    assert draw == expected[2]  # the global generator is where it would have been


@pytest.mark.parametrize('fmt', ['npz', 'h5'])
@pytest.mark.parametrize('kind', ['serial', 'thread', 'process'])
def test_iterators_and_dropout_resume_exactly(tmp_path, fmt, kind):
    if fmt == 'h5':
        pytest.importorskip('h5py')
    _assert_same(*_run(tmp_path, fmt, kind=kind))


@pytest.mark.parametrize('fmt', ['npz', 'h5'])
@pytest.mark.parametrize('extension', sorted(EXTENSIONS))
def test_extensions_resume_exactly(tmp_path, fmt, extension):
    if fmt == 'h5':
        pytest.importorskip('h5py')
    _assert_same(*_run(tmp_path, fmt, extension=extension))


def test_parallel_updater_resumes_exactly(tmp_path):
    # The model copies take the loaded parameters (Chainer 7.8.1 updates once with stale ones).
    _assert_same(*_run(tmp_path, 'npz', updater='parallel'))


def test_parallel_updater_splits_batches_by_stride():
    # Copy i takes examples i, i + n, ... of the batch, as in Chainer 7.8.1.
    seen = {}

    class Spy(chainer.Link):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.w = chainer.Parameter(numpy.zeros(1, numpy.float32))

        def forward(self, x):
            seen.setdefault(id(self), []).append(x[:, 0].tolist())
            return F.sum(self.w * 0) + F.sum(x) * 0

    model = Spy()
    optimizer = chainer.optimizers.SGD()
    optimizer.setup(model)
    data = numpy.arange(6, dtype=numpy.float32).reshape(6, 1)
    iterator = chainer.iterators.SerialIterator(data, 6, shuffle=False)
    updater = training.updaters.ParallelUpdater(iterator, optimizer,
                                                devices={'main': -1, 'second': -1})
    updater.update()
    assert sorted(v[0] for v in seen.values()) == [[0., 2., 4.], [1., 3., 5.]]
    assert seen[id(model)] == [[0., 2., 4.]]


def test_dump_graph_saves_its_flags(tmp_path):
    trainer, _ = _trainer(tmp_path)
    trainer.extend(E.DumpGraph('main/loss'))
    trainer.run()
    saved = serializers.DictionarySerializer()
    saved.save(trainer)
    assert bool(saved.target['extensions/dump_graph/_flag_called'])
    assert not bool(saved.target['extensions/dump_graph/_original_flag'])
    # A resumed run does not dump the graph again, and leaves the configuration alone.
    fresh = E.DumpGraph('main/loss')
    serializers.NpzDeserializer(saved.target, path='extensions/dump_graph/').load(fresh)
    fresh.initialize(trainer)
    assert fresh._flag_called and not chainer.config.keep_graph_on_report
    assert not fresh.trigger(trainer)
