"""Saving and loading objects as HDF5 files (needs h5py: the ``hdf5`` extra).

Child scopes are HDF5 groups and values are datasets, laid out as Chainer
lays them out; ``None`` is an empty dataset.
"""
import errno
import os

import numpy

from chainer import backend
from chainer import serializer
from chainer.serializers import _files

try:
    import h5py
    _available = True
except ImportError:  # pragma: no cover - depends on the environment
    h5py = None
    _available = False


def _check_available():
    if not _available:
        raise RuntimeError('HDF5 serialization needs h5py; install it with '
                           '`pip install h5py` (or the extra `rechainer[hdf5]`)')


class HDF5Serializer(serializer.Serializer):
    """Serializer that writes values into an HDF5 group.

    Args:
        group (h5py.Group): The group to write to (an open ``h5py.File`` for
            the root).
        compression (int): gzip level for arrays with more than one element.
    """

    def __init__(self, group, compression=4):
        _check_available()
        self.group = group
        self.compression = compression

    def __getitem__(self, key):
        return HDF5Serializer(self.group.require_group(key.strip('/')), self.compression)

    def __call__(self, key, value):
        key = key.lstrip('/')
        if value is None:
            if h5py.version.version_tuple[:2] < (2, 7):
                raise RuntimeError('HDF5Serializer: saving None needs h5py 2.7 or newer '
                                   '(h5py.Empty)')
            self.group.create_dataset(key, data=h5py.Empty('f'))
            return value
        array = getattr(value, 'array', value)
        array = numpy.asarray(array) if numpy.isscalar(array) else backend.CpuDevice().send(array)
        compression = self.compression if array.size > 1 else None
        if array.dtype.kind == 'U':
            # Text (LogReport's log, a summary's names): h5py refuses NumPy's unicode
            # arrays, so it goes in as variable-length UTF-8 strings (Chainer 7.8.1
            # cannot write such values to HDF5 at all).
            self.group.create_dataset(key, data=array.astype(object),
                                      dtype=h5py.string_dtype(), compression=compression)
            return value
        self.group.create_dataset(key, data=array, compression=compression)
        return value


def save_hdf5(filename, obj, compression=4):
    """Saves an object to an HDF5 file, atomically (see :func:`~chainer.serializers.save_npz`).

    Args:
        filename (str or path-like): Destination.
        obj: Object with a ``serialize`` method.
        compression (int): gzip level for arrays.
    """
    _check_available()
    # h5py reads back what it wrote through a file object: open it for reading too.
    with _files.atomic_open(filename, 'w+b') as f:
        with h5py.File(f, 'w') as h5:
            HDF5Serializer(h5, compression).save(obj)


class HDF5Deserializer(serializer.Deserializer):
    """Deserializer that reads values from an HDF5 group.

    Args:
        group (h5py.Group): The group to read from.
        strict (bool): If ``True``, a missing key is a :class:`KeyError`;
            otherwise the destination keeps its value.
    """

    def __init__(self, group, strict=True, _source=None):
        _check_available()
        self.group = group
        self.strict = strict
        self._source = _source if _source is not None else getattr(
            getattr(group, 'file', None), 'filename', None)

    def _missing(self, key):
        name = '/' if self.group is None else self.group.name
        return KeyError(f'{key!r} is not in group {name!r} of {self._source!r}')

    def __getitem__(self, key):
        key = key.strip('/')
        if self.group is not None and key in self.group:
            child = self.group[key]
        elif self.strict:
            raise self._missing(key)
        else:
            child = None  # nothing to load below a missing group
        return type(self)(child, self.strict, self._source)

    def __call__(self, key, value):
        key = key.lstrip('/')
        if self.group is None or key not in self.group:
            if self.strict:
                raise self._missing(key)
            return value
        dataset = self.group[key]
        if dataset.shape is None:  # an empty dataset: the saved value was None
            return None
        try:
            if h5py.check_string_dtype(dataset.dtype) is not None:
                # Text written as variable-length strings: read back as str.
                data = numpy.asarray(dataset.asstr()[()], dtype=str)
            else:
                data = numpy.asarray(dataset[()])
        except Exception as e:
            raise _files.CorruptedFileError(
                f'cannot read {key!r} in {self._source!r}: {e}') from e
        return self._assign(key, data, value)

    def _assign(self, key, data, value):
        if value is None:
            return data
        if hasattr(value, 'shape') and not numpy.isscalar(value):
            _files.check_shape(key, data, value, f' in {self._source!r}')
            if isinstance(value, numpy.ndarray):
                numpy.copyto(value, data)
            else:
                value[...] = backend.get_array_module(value).asarray(data)
            return value
        return type(value)(data[()] if data.ndim == 0 else data)


class _CheckingHDF5Deserializer(HDF5Deserializer):
    # Dry run (see npz._CheckingNpzDeserializer): reads and checks, changes nothing.

    def _assign(self, key, data, value):
        if value is not None and hasattr(value, 'shape') and not numpy.isscalar(value):
            _files.check_shape(key, data, value, f' in {self._source!r}')
        return value


def load_hdf5(filename, obj):
    """Loads an object's state from an HDF5 file written by :func:`save_hdf5`.

    As :func:`~chainer.serializers.load_npz`, loading is all or nothing: a file
    that fails to load leaves ``obj`` unchanged.

    Args:
        filename (str or path-like): The file.
        obj: Object with a ``serialize`` method to fill.
    """
    _check_available()
    source = os.fspath(filename)
    try:
        h5 = h5py.File(filename, 'r')
    except FileNotFoundError:
        raise
    except OSError as e:
        if not os.path.exists(source):
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), source) from e
        raise OSError(f'cannot read {source!r}: the file is corrupted, truncated or not '
                      f'an HDF5 file ({e})') from e
    with h5:
        _CheckingHDF5Deserializer(h5, _source=source).load(obj)
        HDF5Deserializer(h5, _source=source).load(obj)
