"""ChainerMN's examples, unchanged, under ``mpiexec`` on CPUs, on small data.

Each example is copied from ../shared/chainer-examples/chainermn to a scratch folder and run
there (every mpiexec call bounded by a timeout, with the abort hook on, so that a failing
rank ends the job). The data are made up front, since there is no network:

- MNIST: scikit-learn's digits in a dataset cache in Chainer's MNIST layout
  (_digits_mnist.py);
- ImageNet: 24 synthetic 232x232 images of two classes in the example's list format, and
  their mean made by the example's own compute_mean.py (_cpu_imagenet.py, which also runs
  the example's training loop on CPUs: the example itself insists on a GPU);
- seq2seq: a toy English-French corpus in the WMT layout the example reads
  (_toy_translation.py).
"""
import json
import math
import pathlib
import shutil
import subprocess
import sys

import pytest

from chainermn_tests import _cpu_imagenet
from chainermn_tests import _digits_mnist
from chainermn_tests import _launch
from chainermn_tests import _toy_translation

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / 'shared' / 'chainer-examples' / \
    'chainermn'
HERE = pathlib.Path(__file__).resolve().parent


def copy_example(name, tmp_path):
    folder = EXAMPLES / name
    if not folder.exists():
        pytest.skip(f'{folder} is not here')
    shutil.copytree(folder, tmp_path, dirs_exist_ok=True)


def mpiexec(tmp_path, n, *command, timeout=600, **env):
    env = _launch.env(CHAINERMN_FORCE_ABORT_ON_EXCEPTION='1', **env)
    proc = subprocess.run([_launch.mpiexec(), '-n', str(n), sys.executable, *map(str, command)],
                          cwd=tmp_path, capture_output=True, text=True, env=env,
                          timeout=timeout)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    return proc


def log(tmp_path, out='result', label=''):
    entries = json.loads((tmp_path / out / 'log').read_text())
    print(f'{label}: {entries[-1]}')   # shown with pytest -s: the figures of the last epoch
    return entries


def mnist(tmp_path, script, n, *args):
    _launch.mpiexec()
    pytest.importorskip('sklearn', reason='the digits come from scikit-learn')
    copy_example('mnist', tmp_path)
    _digits_mnist.write_cache(str(tmp_path / 'datasets'))
    return mpiexec(tmp_path, n, script, *args, '--out', 'result',
                   CHAINER_DATASET_ROOT=str(tmp_path / 'datasets'))


def test_data_parallel_mnist_example_learns_the_digits(tmp_path):
    proc = mnist(tmp_path, 'train_mnist.py', 2, '--communicator', 'naive', '--epoch', '5',
                 '--unit', '100', '--batchsize', '50')
    assert 'Num process (COMM_WORLD): 2' in proc.stdout
    entries = log(tmp_path, label='train_mnist.py -n 2')
    assert [entry['epoch'] for entry in entries] == [1, 2, 3, 4, 5]
    # On the 300 held-out digits: about 0.97 after 5 epochs; chance is 0.1.
    assert entries[-1]['validation/main/accuracy'] > 0.9
    assert entries[-1]['main/loss'] < entries[0]['main/loss']
    assert (tmp_path / 'result' / 'cg.dot').exists()


@pytest.mark.parametrize('n', [2, pytest.param(4, marks=pytest.mark.slow)])
def test_model_parallel_mnist_examples_learn_the_digits(tmp_path, n):
    # train_mnist_model_parallel.py runs on exactly 2 processes (its MLP is split in two);
    # train_mnist_dual_parallel.py on any even number (pairs of processes split the MLP,
    # and the pairs share the data).
    scripts = ['train_mnist_model_parallel.py'] if n == 2 else []
    scripts.append('train_mnist_dual_parallel.py')
    for script in scripts:
        mnist(tmp_path, script, n, '--epoch', '4', '--unit', '100', '--batchsize', '50')
        entries = log(tmp_path, label=f'{script} -n {n}')
        assert [entry['epoch'] for entry in entries] == [1, 2, 3, 4], script
        # About 0.95 after 4 epochs (0.92 with 4 processes, which halves each pair's data).
        assert entries[-1]['validation/main/accuracy'] > 0.85, (script, entries[-1])
        assert entries[-1]['main/loss'] < entries[0]['main/loss'] / 2, (script, entries)
        shutil.rmtree(tmp_path / 'result')


@pytest.mark.slow
def test_imagenet_example_trains_on_a_tiny_dataset(tmp_path):
    _launch.mpiexec()
    pytest.importorskip('PIL', reason='the example reads its images with Pillow')
    copy_example('imagenet', tmp_path)
    _cpu_imagenet.make_dataset(str(tmp_path / 'data'))
    subprocess.run([sys.executable, 'compute_mean.py', 'data/train.txt', '--root', 'data',
                    '--output', 'data/mean.npy'], cwd=tmp_path, check=True, timeout=120,
                   env=_launch.env(), capture_output=True)
    proc = mpiexec(tmp_path, 2, HERE / '_cpu_imagenet.py', 'run', 'train_imagenet.py',
                   'data/train.txt', 'data/val.txt', '--root', 'data', '--mean',
                   'data/mean.npy', '--arch', 'nin', '--batchsize', '4', '--val_batchsize',
                   '4', '--epoch', '3', '--loaderjob', '1', '--communicator', 'naive')
    assert 'Num process (COMM_WORLD): 2' in proc.stdout
    entries = log(tmp_path, label='train_imagenet.py -n 2')
    # 16 training images: 8 per process, 2 iterations of 4 per epoch.
    assert [(e['epoch'], e['iteration']) for e in entries] == [(1, 2), (2, 4), (3, 6)]
    for entry in entries:
        for key in ('main/loss', 'validation/main/loss', 'validation/main/accuracy', 'lr'):
            assert math.isfinite(entry[key]), (key, entry)


@pytest.mark.slow
@pytest.mark.parametrize('script', ['seq2seq.py', 'seq2seq_mp1.py'])
def test_seq2seq_examples_learn_a_toy_translation(tmp_path, script):
    # seq2seq.py is data-parallel; seq2seq_mp1.py puts the encoder on rank 0 and the
    # decoder on rank 1 (create_multi_node_n_step_rnn).
    _launch.mpiexec()
    pytest.importorskip('nltk', reason='the examples compute BLEU with nltk')
    pytest.importorskip('progressbar', reason='the examples read their data with progressbar2')
    copy_example('seq2seq', tmp_path)
    _toy_translation.write(str(tmp_path / 'wmt'))
    mpiexec(tmp_path, 2, script, '--input', 'wmt', '--unit', '64', '--batchsize', '8',
            '--stop', '10e', '--out', 'result')
    entries = log(tmp_path, label=f'{script} -n 2')
    assert [entry['epoch'] for entry in entries] == list(range(1, 11))
    # The loss per sentence falls from about 22 to below 10 (below 6 model-parallel, which
    # sees every pair each epoch); BLEU on the 12 held-out pairs rises from about 0.01.
    assert entries[-1]['main/loss'] < 0.7 * entries[0]['main/loss']
    assert all(0 <= e['validation/main/bleu'] <= 1 for e in entries)
