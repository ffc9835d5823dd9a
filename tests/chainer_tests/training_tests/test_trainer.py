import io
import os
import sys

import numpy
import pytest

import chainer
from chainer import serializers
from chainer import testing
from chainer import training
from chainer.training import extensions
from chainer_tests.training_tests import _train_helpers as H

FIXTURE = os.path.join(os.path.dirname(__file__), '..', '..', 'fixtures', 'chainer781_files',
                       'snapshot_iter_4')


def test_extensions_run_by_priority_then_registration():
    trainer = testing.get_trainer_with_mock_updater((2, 'iteration'))
    calls = []
    for name, prio in [('a', 100), ('b', 300), ('c', 100), ('d', 200)]:
        trainer.extend(lambda t, n=name: calls.append(n), name=name, priority=prio)
    trainer.run()
    assert calls == ['b', 'd', 'a', 'c'] * 2


def test_extend_names_defaults_and_duplicates():
    trainer = testing.get_trainer_with_mock_updater()

    def f(t):
        pass

    trainer.extend(f)
    trainer.extend(f)
    trainer.extend(extensions.LogReport())
    trainer.extend(f, name='x')
    trainer.extend(f, name='x')
    assert list(trainer._extensions) == ['f', 'f_1', 'LogReport', 'x', 'x_1']
    assert isinstance(trainer.get_extension('LogReport'), extensions.LogReport)
    with pytest.raises(ValueError, match='nope'):
        trainer.get_extension('nope')
    with pytest.raises(ValueError, match='training'):
        trainer.extend(f, name='training')
    with pytest.raises(ValueError, match='call_before_training'):
        trainer.extend(f, invoke_before_training=True)


@pytest.mark.parametrize('trigger, error', [
    ('bad', TypeError), ((1, 'day'), ValueError), (5, TypeError), ((1, 2, 3), TypeError)])
def test_invalid_trigger_names_the_extension(trigger, error):
    trainer = testing.get_trainer_with_mock_updater()
    with pytest.raises(error, match="'my_ext'"):
        trainer.extend(lambda t: None, name='my_ext', trigger=trigger)
    assert 'my_ext' not in trainer._extensions


def test_elapsed_time_and_run_once():
    trainer = testing.get_trainer_with_mock_updater((3, 'iteration'))
    with pytest.raises(RuntimeError):
        trainer.elapsed_time
    seen = []
    trainer.extend(lambda t: seen.append(t.elapsed_time), name='clock')
    trainer.run()
    assert len(seen) == 3 and seen == sorted(seen) and seen[0] >= 0
    assert trainer.elapsed_time >= seen[-1]
    with pytest.raises(RuntimeError):
        trainer.run()


def test_initialize_call_before_training_finalize():
    trainer = testing.get_trainer_with_mock_updater((2, 'iteration'))
    events = []

    class Ext(training.Extension):
        def initialize(self, trainer):
            events.append('init')

        def __call__(self, trainer):
            events.append(trainer.updater.iteration)

        def finalize(self):
            events.append('fin')

    trainer.extend(Ext(), call_before_training=True)
    trainer.run()
    assert events == ['init', 0, 1, 2, 'fin']


def test_on_error_called_and_exception_reraised(capsys):
    trainer = testing.get_trainer_with_mock_updater((5, 'iteration'))
    got = []

    def boom(t):
        if t.updater.iteration == 2:
            raise ZeroDivisionError('boom')

    class Watch(training.Extension):
        def __call__(self, trainer):
            pass

        def on_error(self, trainer, exc, tb):
            got.append((type(exc), tb is not None))

        def finalize(self):
            got.append('fin')

    trainer.extend(boom)
    trainer.extend(Watch())
    with pytest.raises(ZeroDivisionError):
        trainer.run()
    assert got == [(ZeroDivisionError, True), 'fin']
    assert 'Exception in main training loop: boom' in capsys.readouterr().err


def test_observation_collects_reports(tmp_path):
    trainer, model, _ = H.make_trainer(str(tmp_path), stop=(1, 'iteration'))
    seen = {}
    trainer.extend(lambda t: seen.update(t.observation), name='look')
    trainer.run()
    assert 'main/loss' in seen


def test_serialize_key_layout(tmp_path):
    trainer, _, _ = H.make_trainer(str(tmp_path), stop=(2, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    trainer.extend(extensions.snapshot(), trigger=(2, 'iteration'))
    trainer.run()
    keys = set(serializers.npz.serialize(trainer))
    assert 'updater/iteration' in keys
    assert 'updater/model:main/l1/W' in keys
    assert 'updater/optimizer:main/t' in keys
    assert 'updater/iterator:main/current_position' in keys
    assert {'stop_trigger/previous_iteration', 'stop_trigger/previous_epoch_detail',
            'extension_triggers/_Snapshot/previous_iteration',
            'extensions/LogReport/_log', '_snapshot_elapsed_time'} <= keys


class _Wrap(chainer.Chain):
    # The fixture's model was L.Classifier(Net()): only `predictor` is saved.
    def __init__(self, net):
        super().__init__()
        with self.init_scope():
            self.predictor = net


def _fixture_trainer(out):
    sys.path.insert(0, os.path.join(os.path.dirname(FIXTURE), '..'))
    try:
        import make_serializer_files as maker
    finally:
        sys.path.pop(0)
    model = _Wrap(maker.Net())
    opt = chainer.optimizers.Adam(alpha=0.01)
    opt.setup(model)
    data = chainer.datasets.TupleDataset(numpy.zeros((8, 3), 'f'), numpy.zeros((8, 2), 'f'))
    it = chainer.iterators.SerialIterator(data, 3, shuffle=True)
    trainer = training.Trainer(training.updaters.StandardUpdater(it, opt), (4, 'iteration'),
                               out=out)
    trainer.extend(extensions.snapshot(), trigger=(4, 'iteration'))
    return trainer, model, opt, it


def test_loads_snapshot_written_by_chainer(tmp_path):
    trainer, model, opt, it = _fixture_trainer(str(tmp_path))
    serializers.load_npz(FIXTURE, trainer)
    ref = numpy.load(FIXTURE, allow_pickle=True)
    assert trainer.updater.iteration == 4
    assert opt.t == 4
    assert it.epoch == 1 and it.current_position == 4
    numpy.testing.assert_array_equal(model.predictor.head.W.array,
                                     ref['updater/model:main/predictor/head/W'])
    assert trainer.stop_trigger._previous_iteration == 3
    assert trainer._snapshot_elapsed_time == pytest.approx(
        float(ref['_snapshot_elapsed_time']))


def test_corrupted_snapshot_is_clear_error_and_trainer_unchanged(tmp_path):
    trainer, model, opt, it = _fixture_trainer(str(tmp_path))
    before = H.params_of(model)
    with open(FIXTURE, 'rb') as f:
        data = f.read()
    bad = tmp_path / 'snapshot_iter_4'
    bad.write_bytes(data[:len(data) // 2])
    with pytest.raises(ValueError, match='snapshot_iter_4'):
        serializers.load_npz(str(bad), trainer)
    assert trainer.updater.iteration == 0 and opt.t == 0 and it.current_position == 0
    for k, v in H.params_of(model).items():
        numpy.testing.assert_array_equal(v, before[k])


def test_snapshot_of_other_model_is_error_and_trainer_unchanged(tmp_path):
    # A complete file that does not fit the trainer (another model) changes nothing.
    trainer, model, opt = H.make_trainer(str(tmp_path))
    before = H.params_of(model)
    with pytest.raises((KeyError, ValueError), match='snapshot_iter_4'):
        serializers.load_npz(FIXTURE, trainer)
    assert trainer.updater.iteration == 0 and opt.t == 0
    for k, v in H.params_of(model).items():
        numpy.testing.assert_array_equal(v, before[k])


def test_trainer_resume_continues_like_uninterrupted(tmp_path):
    full, full_model, _ = H.make_trainer(str(tmp_path / 'a'), stop=(3, 'epoch'))
    full.run()
    part, _, _ = H.make_trainer(str(tmp_path / 'b'), stop=(5, 'iteration'))
    part.run()
    path = str(tmp_path / 'snap.npz')
    serializers.save_npz(path, part)
    numpy.random.seed(123)  # the resumed run must not depend on the global RNG
    rest, rest_model, _ = H.make_trainer(str(tmp_path / 'c'), stop=(3, 'epoch'), seed=7)
    serializers.load_npz(path, rest)
    rest.run()
    assert rest.updater.iteration == full.updater.iteration
    ref = H.params_of(full_model)
    for k, v in H.params_of(rest_model).items():
        numpy.testing.assert_array_equal(v, ref[k])


def test_print_report_through_trainer(tmp_path):
    trainer, _, _ = H.make_trainer(str(tmp_path), stop=(2, 'epoch'))
    out = io.StringIO()
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(['epoch', 'iteration', 'main/loss'], out=out))
    trainer.run()
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ['epoch', 'iteration', 'main/loss']
    assert [line.split()[:2] for line in lines[1:]] == [['1', '3'], ['2', '6']]
