"""CIFAR-10 and CIFAR-100: 32x32 colour images."""
import pickle
import tarfile

import numpy

import chainer
from chainer.dataset import download
from chainer.datasets import _cache
from chainer.datasets import tuple_dataset

_URLS = {
    'cifar-10': 'https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz',
    'cifar-100': 'https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz',
}


def _pickle_load(f):
    # The archives hold Python 2 pickles of dicts of arrays and lists; latin-1
    # decodes their str keys, and only these plain types may come out.
    return _DataUnpickler(f, encoding='latin-1').load()


class _DataUnpickler(pickle.Unpickler):
    # The batches contain NumPy arrays; nothing else may be constructed.

    _allowed = {('numpy.core.multiarray', '_reconstruct'), ('numpy', 'ndarray'),
                ('numpy', 'dtype'), ('numpy._core.multiarray', '_reconstruct'),
                ('numpy.core.numeric', '_frombuffer'), ('numpy._core.numeric', '_frombuffer')}

    def find_class(self, module, name):
        if (module, name) in self._allowed:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f'CIFAR archive: refusing to load {module}.{name}')


def _members(name):
    # (train member names, test member names, label key) of the archive.
    if name == 'cifar-10':
        return ([f'cifar-10-batches-py/data_batch_{i}' for i in range(1, 6)],
                ['cifar-10-batches-py/test_batch'], 'labels')
    return ['cifar-100-python/train'], ['cifar-100-python/test'], 'fine_labels'


def _make_npz(path, name):
    archive_path = download.cached_download(_URLS[name])
    train_names, test_names, label_key = _members(name)
    arrays = {}
    try:
        with tarfile.open(archive_path, 'r:gz') as archive:
            for split, names in (('train', train_names), ('test', test_names)):
                xs, ys = [], []
                for member in names:
                    d = _pickle_load(archive.extractfile(member))
                    xs.append(numpy.asarray(d['data'], numpy.uint8))
                    ys.append(numpy.asarray(d[label_key], numpy.uint8))
                arrays[split + '_x'] = numpy.concatenate(xs)
                arrays[split + '_y'] = numpy.concatenate(ys)
    except (OSError, EOFError, KeyError, tarfile.TarError, pickle.UnpicklingError) as e:
        raise _cache.CorruptedFile(f'{archive_path} ({type(e).__name__}: {e})') from e
    numpy.savez_compressed(path, **arrays)
    return arrays


def _preprocess(x, y, withlabel, ndim, scale, dtype):
    if ndim == 1:
        x = x.reshape(len(x), -1)
    elif ndim == 3:
        x = x.reshape(-1, 3, 32, 32)
    else:
        raise ValueError(f'invalid ndim for CIFAR dataset: {ndim}; expected 1 or 3')
    x = x.astype(dtype)
    x *= scale / 255.
    if withlabel:
        return tuple_dataset.TupleDataset(x, y.astype(numpy.int32))
    return x


def _get_cifar(name, withlabel, ndim, scale, dtype):
    path = _cache.dataset_path('cifar', name + '.npz')
    raw = _cache.load_or_build(name, path, lambda p: _make_npz(p, name),
                               lambda p: _cache.read_npz(numpy.load, p),
                               [download._cache_path(_URLS[name])])
    dtype = chainer.get_dtype(dtype)
    train = _preprocess(raw['train_x'], raw['train_y'], withlabel, ndim, scale, dtype)
    test = _preprocess(raw['test_x'], raw['test_y'], withlabel, ndim, scale, dtype)
    return train, test


def get_cifar10(withlabel=True, ndim=3, scale=1., dtype=None):
    """Returns CIFAR-10: 50000 training and 10000 test 32x32 RGB images, 10 classes.

    Args:
        withlabel (bool): Return ``(image, label)`` pairs, else images only.
        ndim (int): 3: images ``(3, 32, 32)``; 1: vectors of 3072.
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype (``chainer.config.dtype`` by default).

    Returns:
        tuple: ``(train, test)``.
    """
    return _get_cifar('cifar-10', withlabel, ndim, scale, dtype)


def get_cifar100(withlabel=True, ndim=3, scale=1., dtype=None):
    """Returns CIFAR-100 (fine labels, 100 classes); arguments as :func:`get_cifar10`."""
    return _get_cifar('cifar-100', withlabel, ndim, scale, dtype)
