"""ChainerMN's data-parallel MNIST example, unchanged, under ``mpiexec -n 2`` on CPUs.

The example comes from ../shared/chainer-examples/chainermn/mnist (copied to a scratch
folder and run there); its data is scikit-learn's digits written into a dataset cache in
Chainer's MNIST layout (_digits_mnist.py), since there is no network.
"""
import json
import pathlib
import shutil
import subprocess
import sys

import pytest

from chainermn_tests import _digits_mnist
from chainermn_tests import _launch

EXAMPLES = pathlib.Path(__file__).resolve().parents[3] / 'shared' / 'chainer-examples' / \
    'chainermn'
def test_data_parallel_mnist_example_learns_the_digits(tmp_path):
    mpiexec = _launch.mpiexec()
    pytest.importorskip('sklearn', reason='the digits come from scikit-learn')
    example = EXAMPLES / 'mnist' / 'train_mnist.py'
    if not example.exists():
        pytest.skip(f'{example} is not here')
    shutil.copy(example, tmp_path / 'train_mnist.py')
    _digits_mnist.write_cache(str(tmp_path / 'datasets'))
    env = _launch.env(CHAINER_DATASET_ROOT=str(tmp_path / 'datasets'),
                      CHAINERMN_FORCE_ABORT_ON_EXCEPTION='1')
    proc = subprocess.run(
        [mpiexec, '-n', '2', sys.executable, 'train_mnist.py', '--communicator', 'naive',
         '--epoch', '5', '--unit', '100', '--batchsize', '50', '--out', 'result'],
        cwd=tmp_path, capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert 'Num process (COMM_WORLD): 2' in proc.stdout
    log = json.loads((tmp_path / 'result' / 'log').read_text())
    assert [entry['epoch'] for entry in log] == [1, 2, 3, 4, 5]
    # On the 300 held-out digits: about 0.97 after 5 epochs; chance is 0.1.
    assert log[-1]['validation/main/accuracy'] > 0.9
    assert log[-1]['main/loss'] < log[0]['main/loss']
    assert (tmp_path / 'result' / 'cg.dot').exists()
