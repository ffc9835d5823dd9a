import sys
import types

import pytest

from chainer import testing


class _FakeTrainer:
    """Stands in for chainer.training.Trainer: runs the updater until the stop count."""

    def __init__(self, updater, stop_trigger, extensions=None):
        self.updater = updater
        self.stop_trigger = stop_trigger
        self.extensions = extensions

    def run(self):
        n, unit = self.stop_trigger
        while getattr(self.updater, unit) < n:
            self.updater.update()


@pytest.fixture
def fake_training(monkeypatch):
    module = types.ModuleType('chainer.training')
    module.Trainer = _FakeTrainer
    monkeypatch.setitem(sys.modules, 'chainer.training', module)
    import chainer
    monkeypatch.setattr(chainer, 'training', module, raising=False)


def test_mock_updater_counts_iterations_and_epochs(fake_training):
    trainer = testing.get_trainer_with_mock_updater((7, 'iteration'), iter_per_epoch=3)
    updater = trainer.updater
    assert updater.iteration == 0 and updater.epoch == 0 and updater.epoch_detail == 0
    assert updater.get_all_optimizers() == {}
    assert trainer.extensions == []
    new_epochs = []
    for _ in range(7):
        updater.update()
        new_epochs.append(updater.is_new_epoch)
    assert updater.iteration == 7 and updater.epoch == 2
    assert updater.epoch_detail == pytest.approx(7 / 3)
    assert updater.previous_epoch_detail == pytest.approx(2)
    assert new_epochs == [False, False, True, False, False, True, False]
    assert updater.update.call_count == 7


def test_run_until_stop_trigger(fake_training):
    trainer = testing.get_trainer_with_mock_updater((2, 'epoch'), iter_per_epoch=5,
                                                    extensions=['e'])
    trainer.run()
    assert trainer.updater.iteration == 10 and trainer.extensions == ['e']
