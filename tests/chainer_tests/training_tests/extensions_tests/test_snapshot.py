import os
import warnings

import numpy
import pytest

from chainer import serializers
from chainer import testing
from chainer.training import extensions
from chainer.training.extensions import snapshot_writers
from chainer_tests.training_tests import _train_helpers as H


def _snapshots(out):
    return sorted(n for n in os.listdir(out) if n.startswith('snapshot_iter_'))


def test_snapshot_filename_template_and_n_retains(tmp_path):
    trainer, _, _ = H.make_trainer(str(tmp_path), stop=(6, 'iteration'))
    trainer.extend(extensions.snapshot(n_retains=2), trigger=(1, 'iteration'))
    trainer.run()
    assert _snapshots(tmp_path) == ['snapshot_iter_5', 'snapshot_iter_6']
    assert not [n for n in os.listdir(tmp_path) if n.endswith('.tmp')]


def test_snapshot_object_and_callable_filename(tmp_path):
    trainer, model, _ = H.make_trainer(str(tmp_path), stop=(2, 'iteration'))
    trainer.extend(extensions.snapshot_object(model, 'model_{.updater.iteration}.npz'),
                   trigger=(1, 'iteration'))
    trainer.extend(extensions.snapshot(filename=lambda t: f'custom_{t.updater.iteration}'),
                   trigger=(2, 'iteration'))
    trainer.run()
    assert {'model_1.npz', 'model_2.npz', 'custom_2'} <= set(os.listdir(tmp_path))
    fresh = H.Regressor()
    serializers.load_npz(str(tmp_path / 'model_2.npz'), fresh)
    numpy.testing.assert_array_equal(fresh.l1.W.array, model.l1.W.array)


@pytest.mark.parametrize('writer', [
    lambda: snapshot_writers.SimpleWriter(),
    lambda: snapshot_writers.ThreadWriter(),
    lambda: snapshot_writers.ProcessWriter(),
    lambda: snapshot_writers.ThreadQueueWriter(),
    lambda: snapshot_writers.ProcessQueueWriter(),
])
def test_writers_write_complete_snapshots(tmp_path, writer):
    trainer, model, _ = H.make_trainer(str(tmp_path), stop=(4, 'iteration'))
    trainer.extend(extensions.snapshot(writer=writer(), n_retains=3), trigger=(2, 'iteration'))
    trainer.run()
    assert _snapshots(tmp_path) == ['snapshot_iter_2', 'snapshot_iter_4']
    resumed, resumed_model, _ = H.make_trainer(str(tmp_path / 'x'), stop=(4, 'iteration'))
    serializers.load_npz(str(tmp_path / 'snapshot_iter_4'), resumed)
    assert resumed.updater.iteration == 4
    numpy.testing.assert_array_equal(resumed_model.l2.W.array, model.l2.W.array)


def test_savefun_and_writer_exclusive():
    with pytest.raises(TypeError, match='savefun'):
        extensions.snapshot(savefun=serializers.save_npz,
                            writer=snapshot_writers.SimpleWriter())


def test_autoload_takes_newest_good_snapshot_and_cleans_temporaries(tmp_path):
    trainer, _, _ = H.make_trainer(str(tmp_path), stop=(4, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(2, 'iteration'))
    trainer.run()
    # A newer snapshot that is corrupted, and a stale temporary of a killed write.
    with open(tmp_path / 'snapshot_iter_4', 'rb') as f:
        data = f.read()
    bad = tmp_path / 'snapshot_iter_6'
    bad.write_bytes(data[:100])
    os.utime(bad, ns=(os.stat(tmp_path / 'snapshot_iter_4').st_mtime_ns + 10**9,) * 2)
    stale = tmp_path / '.snapshot_iter_8.abc123.tmp'
    stale.write_bytes(b'partial')
    resumed, _, _ = H.make_trainer(str(tmp_path), stop=(6, 'iteration'))
    resumed.extend(extensions.snapshot(autoload=True), trigger=(2, 'iteration'))
    with pytest.warns(UserWarning, match='snapshot_iter_6'):
        resumed.run()
    assert not stale.exists()
    assert resumed.updater.iteration == 6
    # The run started from iteration 4 and wrote a good snapshot_iter_6 over the bad one.
    fresh, _, _ = H.make_trainer(str(tmp_path / 'y'))
    serializers.load_npz(str(tmp_path / 'snapshot_iter_6'), fresh)
    assert fresh.updater.iteration == 6


def test_autoload_without_snapshots_starts_fresh(tmp_path):
    trainer, _, _ = H.make_trainer(str(tmp_path), stop=(2, 'iteration'))
    trainer.extend(extensions.snapshot(autoload=True), trigger=(5, 'iteration'))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        trainer.run()
    assert trainer.updater.iteration == 2


def test_autoload_initializes_before_other_extensions(tmp_path):
    # The shift must see the resumed state, so its learning rate continues.
    trainer, _, opt = H.make_trainer(str(tmp_path), stop=(3, 'iteration'))
    trainer.extend(extensions.ExponentialShift('lr', 0.5), trigger=(1, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(3, 'iteration'))
    trainer.run()
    resumed, _, new_opt = H.make_trainer(str(tmp_path), stop=(3, 'iteration'))
    resumed.extend(extensions.ExponentialShift('lr', 0.5), trigger=(1, 'iteration'))
    resumed.extend(extensions.snapshot(autoload=True), trigger=(3, 'iteration'))
    resumed.run()
    assert new_opt.lr == pytest.approx(opt.lr)


def test_snapshot_on_error(tmp_path):
    trainer = testing.get_trainer_with_mock_updater((5, 'iteration'))
    trainer.out = str(tmp_path)
    trainer.updater.serialize = lambda s: None

    def fail(t):
        if t.updater.iteration == 2:
            raise RuntimeError('stop')

    trainer.extend(fail)
    trainer.extend(
        extensions.snapshot(snapshot_on_error=True, filename='err_{.updater.iteration}'),
        trigger=(10, 'iteration'))
    with pytest.raises(RuntimeError):
        trainer.run(show_loop_exception_msg=False)
    assert os.listdir(tmp_path) == ['err_2']
