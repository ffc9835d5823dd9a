"""examples/migrate/mnist_to_torch.py: the MNIST example's trained model, converted to
PyTorch, has the same test accuracy there, and converts back unchanged."""
import re

import pytest

from examples_tests import _run_example as R

pytest.importorskip('sklearn')
pytest.importorskip('torch', reason='PyTorch is not installed')
threadpoolctl = pytest.importorskip('threadpoolctl')  # comes with scikit-learn

pytestmark = pytest.mark.torch


@pytest.fixture(scope='module')
def trained(tmp_path_factory):
    out = str(tmp_path_factory.mktemp('migrate') / 'result')
    train = R.load('mnist/train_mnist.py', 'example_train_mnist_for_migrate')
    with threadpoolctl.threadpool_limits(1):
        train.main(['-e', '3', '-o', out, '--unit', '100', '--noplot'])
    return out


@pytest.fixture(scope='module')
def example():
    return R.load('migrate/mnist_to_torch.py', 'example_mnist_to_torch')


def test_same_accuracy_in_pytorch(example, trained, capsys):
    assert example.main(['--result', trained]) == 0
    out = capsys.readouterr().out
    m = re.search(r'test accuracy: Chainer (\S+), PyTorch (\S+) \(300 images', out)
    assert m, out
    assert m.group(1) == m.group(2)
    assert float(m.group(1)) > 0.8          # a trained model, not chance
    assert 'Chainer predicts the same' in out


def test_without_a_snapshot_says_how_to_train(example, tmp_path):
    with pytest.raises(SystemExit, match='train first'):
        example.main(['--result', str(tmp_path)])
