"""get_mnist and friends on caches in Chainer's layout (tests/fixtures/mnist_cache).

The fixture was written by Chainer 7.8.1 itself (tests/fixtures/make_mnist_cache.py):
raw IDX downloads under ``_dl_cache`` and the npz files Chainer makes of them.
"""
import gzip
import hashlib
import os
import shutil
import urllib.error
import urllib.request

import numpy as np
import pytest

import chainer
from chainer.dataset import download
from chainer.datasets import fashion_mnist

FIXTURE = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, 'fixtures',
                       'mnist_cache')
MNIST_URL = 'http://yann.lecun.com/exdb/mnist/'


def _expected_images(n, offset):
    base = np.arange(28 * 28).reshape(28, 28)
    return np.stack([(base + 37 * (i + offset)) % 256 for i in range(n)])


def _tree(root):
    # path -> (size, mtime, md5) of every file under root.
    out = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            p = os.path.join(dirpath, name)
            with open(p, 'rb') as f:
                out[os.path.relpath(p, root)] = (os.path.getsize(p), os.path.getmtime(p),
                                                 hashlib.md5(f.read()).hexdigest())
    return out


@pytest.fixture
def root():
    old = download.get_dataset_root()
    yield lambda path: download.set_dataset_root(str(path))
    download.set_dataset_root(old)


@pytest.fixture
def offline(monkeypatch):
    def refuse(*args, **kwargs):
        raise urllib.error.URLError('offline (test)')
    monkeypatch.setattr(urllib.request, 'urlopen', refuse)


def test_reads_chainer_cache_without_writing(root, offline, monkeypatch):
    root(FIXTURE)
    before = _tree(FIXTURE)

    def no_write(*args, **kwargs):
        raise AssertionError('the cache was written')
    monkeypatch.setattr(np, 'savez_compressed', no_write)
    train, test = chainer.datasets.get_mnist(ndim=3)
    assert isinstance(train, chainer.datasets.TupleDataset) and len(train) == 5
    x, y = train[2]
    assert x.shape == (1, 28, 28) and x.dtype == np.float32 and y.dtype == np.int32
    np.testing.assert_allclose(x[0], _expected_images(5, 0)[2] / 255., rtol=1e-6)
    assert [int(t[1]) for t in test] == [7, 8, 9]
    images = chainer.datasets.get_mnist(withlabel=False, ndim=2, scale=2., dtype=np.float64)[1]
    np.testing.assert_allclose(images, _expected_images(3, 100) * (2. / 255.))
    assert _tree(FIXTURE) == before


@pytest.mark.parametrize('kwargs,shape', [
    ({}, (784,)), ({'ndim': 2}, (28, 28)), ({'ndim': 3, 'rgb_format': True}, (3, 28, 28))])
def test_shapes(root, offline, kwargs, shape):
    root(FIXTURE)
    train, _ = chainer.datasets.get_mnist(**kwargs)
    assert train[0][0].shape == shape
    with pytest.raises(ValueError, match='ndim'):
        chainer.datasets.get_mnist(ndim=4)


def test_builds_the_npz_chainer_builds(root, offline, tmp_path):
    shutil.copytree(os.path.join(FIXTURE, '_dl_cache'), tmp_path / '_dl_cache')
    root(tmp_path)
    chainer.datasets.get_mnist()
    for name in ('train.npz', 'test.npz'):
        ours = np.load(tmp_path / 'pfnet' / 'chainer' / 'mnist' / name)
        theirs = np.load(os.path.join(FIXTURE, 'pfnet', 'chainer', 'mnist', name))
        assert sorted(ours.files) == sorted(theirs.files) == ['x', 'y']
        for k in ours.files:
            assert ours[k].dtype == theirs[k].dtype
            np.testing.assert_array_equal(ours[k], theirs[k])


def test_corrupted_npz_is_rebuilt_from_raw_files(root, offline, tmp_path):
    shutil.copytree(FIXTURE, tmp_path / 'cache')
    root(tmp_path / 'cache')
    npz = tmp_path / 'cache' / 'pfnet' / 'chainer' / 'mnist' / 'train.npz'
    npz.write_bytes(npz.read_bytes()[:100])
    with pytest.warns(UserWarning, match='train.npz'):
        train, _ = chainer.datasets.get_mnist()
    assert len(train) == 5
    assert np.load(npz)['x'].shape == (5, 784)


def test_corrupted_npz_without_raw_files_names_the_file(root, offline, tmp_path):
    shutil.copytree(FIXTURE, tmp_path / 'cache')
    shutil.rmtree(tmp_path / 'cache' / '_dl_cache')
    root(tmp_path / 'cache')
    npz = tmp_path / 'cache' / 'pfnet' / 'chainer' / 'mnist' / 'test.npz'
    npz.write_bytes(b'not a zip file')
    with pytest.raises(RuntimeError) as e:
        chainer.datasets.get_mnist()
    assert str(npz) in str(e.value) and 'corrupted' in str(e.value)


def test_corrupted_raw_file_names_it(root, offline, tmp_path):
    shutil.copytree(os.path.join(FIXTURE, '_dl_cache'), tmp_path / '_dl_cache')
    root(tmp_path)
    raw = tmp_path / '_dl_cache' / hashlib.md5(
        (MNIST_URL + 'train-labels-idx1-ubyte.gz').encode()).hexdigest()
    raw.write_bytes(gzip.compress(b'\x00\x00\x08\x01garbage'))
    with pytest.raises(RuntimeError) as e:
        chainer.datasets.get_mnist()
    assert str(raw) in str(e.value)
    assert not (tmp_path / 'pfnet' / 'chainer' / 'mnist' / 'train.npz').exists()


def test_offline_without_cache_names_url_and_place(root, offline, tmp_path):
    root(tmp_path)
    with pytest.raises(RuntimeError) as e:
        chainer.datasets.get_mnist()
    url = MNIST_URL + 'train-images-idx3-ubyte.gz'
    place = os.path.join(str(tmp_path), '_dl_cache', hashlib.md5(url.encode()).hexdigest())
    assert url in str(e.value) and place in str(e.value)


def test_fashion_mnist_reads_debian_idx_files(root, offline, tmp_path, monkeypatch):
    system = tmp_path / 'system'
    system.mkdir()
    for prefix in ('train', 't10k'):
        for kind in ('images-idx3', 'labels-idx1'):
            name = f'{prefix}-{kind}-ubyte.gz'
            src = os.path.join(FIXTURE, '_dl_cache',
                               hashlib.md5((MNIST_URL + name).encode()).hexdigest())
            shutil.copy(src, system / name)
    monkeypatch.setattr(fashion_mnist, '_SYSTEM_DIR', str(system))
    root(tmp_path / 'cache')
    train, test = chainer.datasets.get_fashion_mnist()
    assert len(train) == 5 and len(test) == 3
    assert (tmp_path / 'cache' / 'pfnet' / 'chainer' / 'fashion-mnist' / 'train.npz').exists()
    assert chainer.datasets.get_fashion_mnist_labels()[9] == 'Ankle boot'
    assert chainer.datasets.get_kuzushiji_mnist_labels()[0] == ('o', '\u304a')
