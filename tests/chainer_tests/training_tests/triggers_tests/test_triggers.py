import io
import warnings

import numpy
import pytest

from chainer import serializers
from chainer import testing
from chainer.training import triggers
from chainer.training import util


def _roundtrip(trigger, fresh):
    f = io.BytesIO()
    serializers.save_npz(f, trigger)
    serializers.load_npz(io.BytesIO(f.getvalue()), fresh)
    return fresh


def _run(trigger, trainer, n, observe=None):
    fired = []
    for _ in range(n):
        trainer.updater.update()
        if observe is not None:
            trainer.observation = {'key': observe[trainer.updater.iteration - 1]}
        fired.append(bool(trigger(trainer)))
    return fired


@pytest.mark.parametrize('make', [
    lambda: triggers.IntervalTrigger(3, 'iteration'),
    lambda: triggers.IntervalTrigger(0.5, 'epoch'),
    lambda: triggers.ManualScheduleTrigger([2, 3, 7], 'iteration'),
    lambda: triggers.ManualScheduleTrigger([0.25, 1.5], 'epoch'),
    lambda: triggers.OnceTrigger(),
])
def test_resumed_trigger_continues_exactly(make):
    trainer = testing.get_trainer_with_mock_updater(iter_per_epoch=4)
    whole = _run(make(), trainer, 10)
    trainer = testing.get_trainer_with_mock_updater(iter_per_epoch=4)
    first = make()
    head = _run(first, trainer, 4)
    tail = _run(_roundtrip(first, make()), trainer, 6)
    assert head + tail == whole


def test_interval_trigger_fires_on_crossed_boundaries():
    trainer = testing.get_trainer_with_mock_updater(iter_per_epoch=3)
    assert _run(triggers.IntervalTrigger(2, 'iteration'), trainer, 6) == \
        [False, True, False, True, False, True]
    trainer = testing.get_trainer_with_mock_updater(iter_per_epoch=3)
    assert _run(triggers.IntervalTrigger(1, 'epoch'), trainer, 6) == \
        [False, False, True, False, False, True]
    trigger = triggers.IntervalTrigger(2, 'epoch')
    assert trigger.get_training_length() == (2, 'epoch')
    assert str(trigger) == "IntervalTrigger(2, 'epoch')"


def test_interval_trigger_reports_boundary_between_sparse_calls():
    trainer = testing.get_trainer_with_mock_updater(iter_per_epoch=10)
    trigger = triggers.IntervalTrigger(3, 'iteration')
    for _ in range(4):
        trainer.updater.update()
    assert trigger(trainer)  # iteration 3 was crossed, though not seen
    trainer.updater.update()
    assert not trigger(trainer)


def test_interval_trigger_file_without_state_warns():
    trigger = triggers.IntervalTrigger(2, 'iteration')
    f = io.BytesIO()
    numpy.savez(f, dummy=0)
    with pytest.warns(UserWarning, match='IntervalTrigger'):
        serializers.load_npz(io.BytesIO(f.getvalue()), trigger)


@pytest.mark.parametrize('cls', [triggers.IntervalTrigger, triggers.ManualScheduleTrigger])
def test_invalid_unit(cls):
    with pytest.raises(ValueError, match="'day'"):
        cls(1, 'day')


def test_manual_schedule_finished():
    trainer = testing.get_trainer_with_mock_updater()
    trigger = triggers.ManualScheduleTrigger(3, 'iteration')
    assert _run(trigger, trainer, 4) == [False, False, True, False]
    assert trigger.finished


def test_once_trigger_call_on_resume():
    trainer = testing.get_trainer_with_mock_updater()
    first = triggers.OnceTrigger(call_on_resume=True)
    assert _run(first, trainer, 2) == [True, False]
    again = _roundtrip(first, triggers.OnceTrigger(call_on_resume=True))
    assert _run(again, trainer, 2) == [True, False]
    never = _roundtrip(first, triggers.OnceTrigger())
    assert _run(never, trainer, 2) == [False, False]


def test_time_trigger_and_resume():
    class T:
        elapsed_time = 0.0
    t = T()
    trigger = triggers.TimeTrigger(1.0)
    fired = []
    for now in [0.5, 1.1, 1.5, 2.3, 4.0]:
        t.elapsed_time = now
        fired.append(trigger(t))
    assert fired == [False, True, False, True, True]
    assert _roundtrip(trigger, triggers.TimeTrigger(1.0))._next_time == trigger._next_time


@pytest.mark.parametrize('cls, expected', [
    (triggers.MaxValueTrigger, [False, True, False, False, False, True]),
    (triggers.MinValueTrigger, [False, True, False, True, False, False])])
def test_best_value_triggers_and_resume(cls, expected):
    values = [3., 1., 2., 0., 5., 9.]  # means per pair: 2, 1, 7
    trainer = testing.get_trainer_with_mock_updater()
    assert _run(cls('key', (2, 'iteration')), trainer, 6, values) == expected
    trainer = testing.get_trainer_with_mock_updater()
    first = cls('key', (2, 'iteration'))
    head = _run(first, trainer, 3, values)  # mid-interval: the running mean is saved
    second = _roundtrip(first, cls('key', (2, 'iteration')))
    trainer.observation = {}
    tail = _run(second, trainer, 3, values)
    assert head + tail == expected


def test_early_stopping_trigger():
    trainer = testing.get_trainer_with_mock_updater()
    trigger = triggers.EarlyStoppingTrigger(
        check_trigger=(1, 'iteration'), monitor='key', patience=2,
        max_trigger=(100, 'iteration'))
    fired = []
    for v in [3., 2., 2.5, 2.1, 1.]:
        trainer.updater.update()
        trainer.observation = {'key': v}
        fired.append(trigger(trainer))
    assert fired == [False, False, False, True, False]
    assert trigger.get_training_length() == (100, 'iteration')


def test_early_stopping_modes_and_max_trigger():
    assert triggers.EarlyStoppingTrigger(monitor='validation/main/accuracy').best == \
        float('-inf')
    assert triggers.EarlyStoppingTrigger(monitor='main/loss').best == float('inf')
    trainer = testing.get_trainer_with_mock_updater()
    trigger = triggers.EarlyStoppingTrigger(monitor='missing', check_trigger=(1, 'iteration'),
                                            max_trigger=(3, 'iteration'))
    with pytest.warns(UserWarning, match='missing'):
        fired = _run(trigger, trainer, 3)
    assert fired == [False, False, True]
    with pytest.raises(TypeError):
        triggers.EarlyStoppingTrigger(eps=1)


def test_get_trigger():
    assert util.get_trigger(None)(None) is False
    f = lambda t: True  # NOQA
    assert util.get_trigger(f) is f
    assert isinstance(util.get_trigger((1, 'epoch')), triggers.IntervalTrigger)
    with pytest.raises(TypeError, match="'bad'"):
        util.get_trigger('bad')


def test_no_warning_on_normal_resume():
    trigger = triggers.IntervalTrigger(2, 'iteration')
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        _roundtrip(trigger, triggers.IntervalTrigger(2, 'iteration'))
