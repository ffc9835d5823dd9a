"""examples/cifar/train_cifar.py: the synthetic set, the VGG-like model, a training run."""
import os

import numpy
import pytest

import chainer
from examples_tests import _run_example as R


@pytest.fixture(scope='module')
def example():
    return R.load('cifar/train_cifar.py', 'example_train_cifar')


def test_synthetic_shapes_like_cifar10(example):
    train, test = example.synthetic_cifar(n_train=50, n_test=20)
    assert (len(train), len(test)) == (50, 20)
    x, t = train[0]
    assert x.shape == (3, 32, 32) and x.dtype == numpy.float32
    assert t.dtype == numpy.int32 and 0 <= t < 10
    assert 0 <= x.min() and x.max() <= 1
    hundred = example.synthetic_cifar(n_train=300, n_test=1, class_labels=100)[0]
    assert hundred._datasets[1].max() > 10


def test_uses_the_cache_only_when_present(example, monkeypatch):
    monkeypatch.setattr(example, 'cifar_in_cache', lambda name: False)
    labels, train, _ = example.get_dataset('cifar100', False)
    assert labels == 100 and len(train) == 1000
    fake = (chainer.datasets.TupleDataset(numpy.zeros((2, 3, 32, 32), numpy.float32),
                                          numpy.zeros(2, numpy.int32)),) * 2
    monkeypatch.setattr(example, 'cifar_in_cache', lambda name: name == 'cifar-10')
    monkeypatch.setattr(chainer.datasets, 'get_cifar10', lambda: fake)
    assert example.get_dataset('cifar10', False)[1] is fake[0]
    assert len(example.get_dataset('cifar10', True)[1]) == 1000


def test_vgg_layout(example):
    model = example.VGG(10, channels=4)
    x = numpy.random.rand(3, 3, 32, 32).astype(numpy.float32)
    y = model(x)
    assert y.shape == (3, 10)
    blocks = [l for l in model.children() if isinstance(l, example.Block)]
    assert len(blocks) == 13
    assert [b.conv.out_channels for b in blocks] == [4] * 2 + [8] * 2 + [16] * 3 + [32] * 6
    assert all(isinstance(b.bn, chainer.links.BatchNormalization) for b in blocks)
    chainer.functions.sum(y).backward()
    assert all(p.grad is not None for p in model.params())
    assert example.VGG(10, channels=128).dropout_scale == 1


@pytest.mark.slow
def test_learns_the_synthetic_set(example, tmp_path):
    out = str(tmp_path / 'result')
    numpy.random.seed(0)
    trainer = example.main(['-e', '6', '-l', '0.01', '--channels', '8', '--synthetic', '-o', out])
    log = R.read_log(out)
    assert len(log) == 6 and log[-1]['validation/main/accuracy'] > 0.85
    R.assert_png(os.path.join(out, 'accuracy.png'))
    resumed = example.main(['-e', '7', '-l', '0.01', '--channels', '8', '--synthetic', '--noplot',
                            '-o', str(tmp_path / 'resumed'),
                            '--resume', os.path.join(out, 'snapshot_epoch_6')])
    # 1000 images in batches of 64: epoch 6 ends at iteration 94, epoch 7 at 110.
    assert (trainer.updater.iteration, resumed.updater.iteration) == (94, 110)
    log = R.read_log(str(tmp_path / 'resumed'))
    assert len(log) == 7 and log[-1]['validation/main/accuracy'] > 0.85
