"""examples/mnist/train_mnist.py: its outputs, --resume, --autoload and the full main job."""
import os
import time

import numpy
import pytest

from examples_tests import _run_example as R

pytest.importorskip('sklearn')
pytest.importorskip('matplotlib')
threadpoolctl = pytest.importorskip('threadpoolctl')  # comes with scikit-learn


@pytest.fixture(autouse=True, scope='module')
def _one_blas_thread():
    # These small matrix products are much slower on several BLAS threads when
    # the cores are busy (other tests, other jobs).
    with threadpoolctl.threadpool_limits(1):
        yield

# Small runs: 15 iterations an epoch with the default batch size.
SMALL = ['--unit', '200']


def trained_log(out):
    # Chainer 7.8.1's LogReport also writes an entry at iteration 0 for the evaluation
    # run before training (call_before_training); only the training epochs are checked.
    return [e for e in R.read_log(out) if e['iteration'] > 0]


@pytest.fixture(scope='module')
def example():
    return R.load('mnist/train_mnist.py', 'example_train_mnist')


def test_digits_split(example):
    train, test = example.get_digits()
    assert (len(train), len(test)) == (1497, 300)
    x, t = train[0]
    assert x.shape == (64,) and x.dtype == numpy.float32 and t.dtype == numpy.int32
    assert 0 <= train._datasets[0].min() and train._datasets[0].max() <= 1
    # The split is fixed: the same test images on every call.
    again = example.get_digits()[1]
    numpy.testing.assert_array_equal(test._datasets[0], again._datasets[0])
    assert set(numpy.unique(test._datasets[1])) == set(range(10))


def test_outputs(example, tmp_path, capsys):
    out = str(tmp_path / 'result')
    trainer = example.main(['-e', '2', '-o', out] + SMALL)
    log = trained_log(out)
    assert [e['epoch'] for e in log] == [1, 2]
    assert [e['iteration'] for e in log] == [15, 30]
    for key in ('main/loss', 'validation/main/loss', 'main/accuracy',
                'validation/main/accuracy', 'elapsed_time'):
        assert key in log[-1], key
    R.assert_png(os.path.join(out, 'loss.png'))
    R.assert_png(os.path.join(out, 'accuracy.png'))
    assert os.path.exists(os.path.join(out, 'cg.dot'))
    assert os.listdir(out).count('snapshot_iter_30') == 1
    assert trainer.updater.iteration == 30
    # (PrintReport writes to the sys.stdout of its import, not to capsys's.)
    assert 'test accuracy:' in capsys.readouterr().out


def test_noplot_and_frequency(example, tmp_path):
    out = str(tmp_path / 'result')
    example.main(['-e', '2', '-f', '1', '--noplot', '-o', out] + SMALL)
    files = os.listdir(out)
    assert 'loss.png' not in files and 'accuracy.png' not in files
    # n_retains=1: only the newest of the per-epoch snapshots is left.
    assert [f for f in files if f.startswith('snapshot_')] == ['snapshot_iter_30']


def test_resume_continues(example, tmp_path):
    out = str(tmp_path / 'result')
    example.main(['-e', '3', '-o', out] + SMALL)
    first = trained_log(out)
    snapshot = os.path.join(out, 'snapshot_iter_45')
    out2 = str(tmp_path / 'resumed')
    trainer = example.main(['-e', '5', '-o', out2, '--resume', snapshot] + SMALL)
    assert trainer.updater.iteration == 75
    log = trained_log(out2)
    # The log of the first run comes back with the snapshot and goes on.
    assert [e['iteration'] for e in log] == [15, 30, 45, 60, 75]
    assert log[:3] == first
    # Training continues from where it was: no drop back to an untrained model.
    assert log[3]['validation/main/accuracy'] >= first[-1]['validation/main/accuracy'] - 0.03
    assert log[3]['main/accuracy'] >= first[-1]['main/accuracy'] - 0.03
    assert log[-1]['validation/main/accuracy'] > 0.9


def test_resume_equals_uninterrupted(example, tmp_path):
    # Same seed, same data order: a resumed run ends with the parameters of an
    # uninterrupted one.
    def run(args, out):
        numpy.random.seed(3)
        return example.main(args + ['-o', str(tmp_path / out), '--noplot'] + SMALL)

    whole = run(['-e', '2'], 'whole')
    run(['-e', '1'], 'part')
    resumed = run(['-e', '2', '--resume', str(tmp_path / 'part' / 'snapshot_iter_15')],
                  'resumed')
    for (name, a), (_, b) in zip(sorted(whole.updater.get_optimizer('main').target.namedparams()),
                                 sorted(resumed.updater.get_optimizer('main').target
                                        .namedparams())):
        numpy.testing.assert_allclose(a.array, b.array, rtol=1e-5, atol=1e-6, err_msg=name)


def test_autoload(example, tmp_path):
    out = str(tmp_path / 'result')
    example.main(['-e', '1', '-o', out, '--noplot', '--autoload'] + SMALL)
    trainer = example.main(['-e', '2', '-o', out, '--noplot', '--autoload'] + SMALL)
    assert trainer.updater.iteration == 30
    assert [e['iteration'] for e in trained_log(out)] == [15, 30]


def test_missing_mnist_is_a_clear_error(example, tmp_path, monkeypatch):
    import chainer
    monkeypatch.setattr(chainer.datasets, 'get_mnist',
                        lambda: (_ for _ in ()).throw(OSError('no network')))
    with pytest.raises(SystemExit) as e:
        example.main(['--dataset', 'mnist', '-o', str(tmp_path)])
    assert 'mnist' in str(e.value) and 'no network' in str(e.value)


@pytest.mark.slow
def test_main_job_defaults(tmp_path):
    # The README's main job as CI runs it: default options, fresh interpreter.
    start = time.perf_counter()
    proc = R.run_script('mnist/train_mnist.py', '-o', str(tmp_path / 'result'))
    took = time.perf_counter() - start
    assert proc.returncode == 0, proc.stderr
    log = trained_log(str(tmp_path / 'result'))
    assert len(log) == 20
    assert log[-1]['validation/main/accuracy'] >= 0.95
    R.assert_png(str(tmp_path / 'result' / 'accuracy.png'))
    assert took < 120, f'the main job took {took:.0f} s'
