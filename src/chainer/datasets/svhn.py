"""SVHN: 32x32 colour images of house-number digits (needs SciPy to read)."""
import numpy

import chainer
from chainer.dataset import download
from chainer.datasets import _cache
from chainer.datasets import tuple_dataset

_BASE_URL = 'http://ufldl.stanford.edu/housenumbers/'


def _make_npz(path, url):
    try:
        import scipy.io
    except ImportError as e:
        raise RuntimeError('get_svhn reads MATLAB files and requires SciPy '
                           '(pip install scipy)') from e
    raw_path = download.cached_download(url)
    try:
        data = scipy.io.loadmat(raw_path)
    except (OSError, ValueError, TypeError) as e:
        raise _cache.CorruptedFile(f'{raw_path} ({type(e).__name__}: {e})') from e
    x, y = data['X'], data['y']
    numpy.savez_compressed(path, x=x, y=y)
    return {'x': x, 'y': y}


def _retrieve(name):
    url = f'{_BASE_URL}{name}_32x32.mat'
    return _cache.load_or_build('svhn', _cache.dataset_path('svhn', name + '.npz'),
                                lambda p: _make_npz(p, url),
                                lambda p: _cache.read_npz(numpy.load, p, ('x', 'y')),
                                [download._cache_path(url)])


def _preprocess(raw, withlabel, scale, dtype, label_dtype):
    # The files hold (32, 32, 3, N) images and labels 1..10, 10 standing for 0.
    x = raw['x'].transpose(3, 2, 0, 1).astype(dtype)
    x *= scale / 255.
    if withlabel:
        y = (raw['y'].ravel() % 10).astype(label_dtype)
        return tuple_dataset.TupleDataset(x, y)
    return x


def get_svhn(withlabel=True, scale=1., dtype=None, label_dtype=numpy.int32, add_extra=False):
    """Returns SVHN: 73257 training and 26032 test images ``(3, 32, 32)``.

    Args:
        withlabel (bool): Return ``(image, label)`` pairs, else images only.
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype (``chainer.config.dtype`` by default).
        label_dtype: Label dtype.
        add_extra (bool): Also return the 531131 extra training images.

    Returns:
        tuple: ``(train, test)``, or ``(train, test, extra)`` with ``add_extra``.
    """
    dtype = chainer.get_dtype(dtype)
    names = ['train', 'test'] + (['extra'] if add_extra else [])
    return tuple(_preprocess(_retrieve(name), withlabel, scale, dtype, label_dtype)
                 for name in names)
