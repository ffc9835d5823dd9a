import hashlib
import os
import subprocess
import sys

import numpy as np
import pytest

from chainer.dataset import download


@pytest.fixture
def root(tmp_path):
    old = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path))
    yield tmp_path
    download.set_dataset_root(old)


def test_root_from_environment_and_default(tmp_path):
    code = 'from chainer.dataset import download; print(download.get_dataset_root())'
    env = dict(os.environ, CHAINER_DATASET_ROOT=str(tmp_path), PYTHONPATH=os.pathsep.join(
        p for p in sys.path if p))
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == str(tmp_path)
    env.pop('CHAINER_DATASET_ROOT')
    env['HOME'] = str(tmp_path)
    out = subprocess.run([sys.executable, '-c', code], env=env, capture_output=True,
                         text=True, check=True).stdout.strip()
    assert out == os.path.join(str(tmp_path), '.chainer', 'dataset')


def test_get_dataset_directory(root):
    path = download.get_dataset_directory('pfnet/chainer/x', create_directory=False)
    assert path == os.path.join(str(root), 'pfnet/chainer/x') and not os.path.exists(path)
    assert os.path.isdir(download.get_dataset_directory('pfnet/chainer/x'))


def test_cached_download_names_by_md5_and_reuses(root, tmp_path):
    src = tmp_path / 'data.bin'
    src.write_bytes(b'payload')
    url = src.as_uri()
    path = download.cached_download(url)
    assert path == os.path.join(str(root), '_dl_cache', hashlib.md5(url.encode()).hexdigest())
    with open(path, 'rb') as f:
        assert f.read() == b'payload'
    src.write_bytes(b'changed')
    with open(download.cached_download(url), 'rb') as f:
        assert f.read() == b'payload'
    assert [n for n in os.listdir(os.path.dirname(path)) if n.startswith('.tmp')] == []


def test_offline_error_names_url_and_path(root):
    url = 'http://127.0.0.1:9/never/there.gz'
    with pytest.raises(RuntimeError) as e:
        download.cached_download(url)
    expected = os.path.join(str(root), '_dl_cache', hashlib.md5(url.encode()).hexdigest())
    assert url in str(e.value) and expected in str(e.value)
    assert os.listdir(os.path.dirname(expected)) == []  # no partial file left


def test_cache_or_load_file_is_atomic(root):
    path = os.path.join(str(root), 'sub', 'a.npz')

    def failing(p):
        with open(p, 'wb') as f:
            f.write(b'partial')
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        download.cache_or_load_file(path, failing, np.load)
    assert os.listdir(os.path.dirname(path)) == []

    def creator(p):
        np.savez_compressed(p, a=np.arange(3))
        return 'created'

    assert download.cache_or_load_file(path, creator, np.load) == 'created'
    assert download.cache_or_load_file(path, creator, lambda p: np.load(p)['a'].sum()) == 3
