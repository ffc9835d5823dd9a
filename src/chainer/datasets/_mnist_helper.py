"""What the MNIST-format datasets share: IDX parsing, the npz cache, preprocessing."""
import gzip
import os
import struct
import zipfile

import numpy

from chainer.dataset import download
from chainer.datasets import _cache
from chainer.datasets import tuple_dataset

_CorruptedFile = _cache.CorruptedFile


def _read_idx(path, expected_ndim):
    # A gzip'd IDX file: 2 zero bytes, type 0x08 (unsigned byte), ndim, then
    # big-endian uint32 sizes and the data.
    try:
        with gzip.open(path, 'rb') as f:
            data = f.read()
    except (OSError, EOFError, zipfile.BadZipFile) as e:
        raise _CorruptedFile(f'{path} is not a readable gzip file ({e})') from e
    if len(data) < 4 or data[0] != 0 or data[1] != 0 or data[2] != 8 or \
            data[3] != expected_ndim:
        raise _CorruptedFile(f'{path} is not an IDX file of unsigned bytes with '
                             f'{expected_ndim} dimensions')
    shape = struct.unpack('>' + 'I' * expected_ndim, data[4:4 + 4 * expected_ndim])
    body = numpy.frombuffer(data, numpy.uint8, offset=4 + 4 * expected_ndim)
    if body.size != int(numpy.prod(shape)):
        raise _CorruptedFile(f'{path} is truncated: {body.size} bytes of data for shape '
                             f'{shape}')
    return body.reshape(shape)


def make_npz(path, paths):
    """Writes ``path`` (an npz with ``x``: (N, 784) uint8, ``y``: (N,) uint8) from
    the IDX image and label files ``paths`` (or URLs, which are downloaded)."""
    images, labels = (p if os.path.exists(p) else download.cached_download(p)
                      for p in paths)
    x = _read_idx(images, 3)
    y = _read_idx(labels, 1)
    if len(x) != len(y):
        raise _CorruptedFile(f'{images} has {len(x)} images but {labels} has {len(y)} '
                             'labels')
    x = x.reshape(len(x), -1)
    numpy.savez_compressed(path, x=x, y=y)
    return {'x': x, 'y': y}


def _load_npz(path):
    return _cache.read_npz(numpy.load, path, ('x', 'y'))


def retrieve(name, npz_name, urls, fallback_dir=None):
    """Loads (or builds) ``pfnet/chainer/<name>/<npz_name>`` from the raw files.

    The raw files are Chainer's downloads in ``_dl_cache`` (fetched when
    missing) or, when given, the same file names in ``fallback_dir``. A cached
    npz that cannot be read is rebuilt when the raw files are at hand, else it
    is an error naming the file.
    """
    path = _cache.dataset_path(name, npz_name)
    sources = []
    for url in urls:
        local = download._cache_path(url)
        if not os.path.exists(local) and fallback_dir is not None:
            candidate = os.path.join(fallback_dir, url.rsplit('/', 1)[-1])
            if os.path.exists(candidate):
                local = candidate
        sources.append(local if os.path.exists(local) else url)
    return _cache.load_or_build(name, path, lambda tmp: make_npz(tmp, sources), _load_npz,
                                sources)


def preprocess_mnist(raw, withlabel, ndim, scale, image_dtype, label_dtype, rgb_format):
    """Turns the raw ``x``/``y`` arrays into the datasets that get_mnist returns."""
    images = raw['x']
    if ndim == 2:
        images = images.reshape(-1, 28, 28)
    elif ndim == 3:
        images = images.reshape(-1, 1, 28, 28)
        if rgb_format:
            images = numpy.broadcast_to(images, (len(images), 3, 28, 28))
    elif ndim != 1:
        raise ValueError(f'invalid ndim for MNIST dataset: {ndim}; expected 1, 2 or 3')
    images = images.astype(image_dtype)
    images *= scale / 255.
    if withlabel:
        labels = raw['y'].astype(label_dtype)
        return tuple_dataset.TupleDataset(images, labels)
    return images


def get_mnist_like(name, base_url, withlabel, ndim, scale, dtype, label_dtype, rgb_format,
                   fallback_dir=None):
    """``(train, test)`` of an MNIST-format dataset published at ``base_url``."""
    import chainer
    dtype = chainer.get_dtype(dtype)
    result = []
    for npz_name, prefix in (('train.npz', 'train'), ('test.npz', 't10k')):
        urls = [f'{base_url}{prefix}-images-idx3-ubyte.gz',
                f'{base_url}{prefix}-labels-idx1-ubyte.gz']
        raw = retrieve(name, npz_name, urls, fallback_dir)
        result.append(preprocess_mnist(raw, withlabel, ndim, scale, dtype, label_dtype,
                                       rgb_format))
    return tuple(result)
