"""Saving and loading objects as NumPy ``.npz`` archives, in Chainer's key layout.

Each value is stored under its slash-separated path (``l1/W``, ``bn/avg_mean``,
``l1/W/m`` for an optimizer's state...). ``None`` is stored as a 0-d object
array, as Chainer does; such entries are read back with an unpickler that
accepts nothing but ``None``, so loading a file never runs code from it.
"""

import numpy

from chainer import backend
from chainer import serializer
from chainer.serializers import _files


def _to_numpy(value, key):
    if value is None:
        return numpy.asarray(None)
    array = getattr(value, 'array', value)  # a Variable is saved by its array
    if isinstance(array, numpy.ndarray) or numpy.isscalar(array):
        return numpy.asarray(array)
    try:
        return backend.CpuDevice().send(array)
    except Exception as e:
        raise TypeError(f'Array cannot be converted into an numpy.ndarray\n'
                        f'Actual type: {type(value)}.\n'
                        f'DictionarySerializer: cannot save {key!r}: '
                        f'{type(value).__name__} is not an array or a scalar') from e


class DictionarySerializer(serializer.Serializer):
    """Serializer that collects the values in a flat dictionary of NumPy arrays.

    Args:
        target (dict): The dictionary to fill (a new one if omitted). Keys are
            full paths such as ``'l1/W'``.
        path (str): Prefix of every key this serializer writes (a child scope
            ends with ``/``).
    """

    def __init__(self, target=None, path=''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, key):
        return DictionarySerializer(self.target, self.path + key.strip('/') + '/')

    def __call__(self, key, value):
        key = self.path + key.lstrip('/')
        self.target[key] = _to_numpy(value, key)
        return value


def serialize(obj):
    """Returns the dictionary of arrays :func:`save_npz` would write for ``obj``."""
    s = DictionarySerializer()
    s.save(obj)
    return s.target


def save_npz(file, obj, compression=True):
    """Saves an object (a link, an optimizer, a trainer...) to an ``.npz`` file.

    A file name is written atomically: the archive goes to a temporary file in
    the same folder, is flushed to disk, and replaces ``file`` only once
    complete, so an interrupted save never leaves a broken file behind. The
    name is used as given (no ``.npz`` suffix is added).

    Args:
        file (str, path-like or file object): Destination.
        obj: Object with a ``serialize`` method.
        compression (bool): Write a compressed archive.
    """
    target = serialize(obj)
    savez = numpy.savez_compressed if compression else numpy.savez
    if hasattr(file, 'write'):
        savez(file, **target)
    else:
        with _files.atomic_open(file) as f:
            savez(f, **target)


def _castable(dataset, value):
    # Loading into a Python or NumPy scalar keeps its type; refuse conversions
    # that would lose information (float into int, int into bool...).
    if isinstance(value, (str, bytes)):
        return True
    return numpy.can_cast(dataset.dtype, numpy.dtype(type(value)), 'safe')


class NpzDeserializer(serializer.Deserializer):
    """Deserializer that reads values from an ``.npz`` archive or a dictionary.

    Args:
        npz: Mapping from full keys to arrays: the result of :func:`numpy.load`
            or a dictionary.
        path (str): Prefix of every key read (``'updater/model:main/'`` loads a
            sub-tree).
        strict (bool): If ``True``, a missing key is a :class:`KeyError`;
            otherwise the destination keeps its value.
        ignore_names (str, list of str or callable): Keys not to load: a list
            of full keys, or a function that returns ``True`` for a key to skip.
    """

    def __init__(self, npz, path='', strict=True, ignore_names=None, _source=None):
        self.npz = npz
        self.path = path
        self.strict = strict
        if isinstance(ignore_names, str):
            ignore_names = [ignore_names]
        self.ignore_names = ignore_names
        self._source = _source

    def __getitem__(self, key):
        return type(self)(self.npz, self.path + key.strip('/') + '/', self.strict,
                          self.ignore_names, self._source)

    def _where(self):
        return f' in {self._source!r}' if self._source is not None else ''

    def _ignored(self, key):
        names = self.ignore_names
        if names is None:
            return False
        if callable(names):
            return bool(names(key))
        return key in names

    def _lookup(self, key):
        if key not in self.npz:
            raise KeyError(f'{key} is not a file in the archive{self._where()}')
        return self.npz[key]

    def __call__(self, key, value):
        key = self.path + key.lstrip('/')
        if self._ignored(key) or (not self.strict and key not in self.npz):
            return value
        dataset = self._lookup(key)
        return self._assign(key, dataset, value)

    def _assign(self, key, dataset, value):
        if dataset.dtype == object and dataset.shape == () and dataset[()] is None:
            return None
        if value is None:
            return dataset
        if hasattr(value, 'shape') and hasattr(value, 'dtype') and not numpy.isscalar(value):
            _files.check_shape(key, dataset, value, self._where())
            if isinstance(value, numpy.ndarray):
                numpy.copyto(value, dataset)
            else:
                xp = backend.get_array_module(value)
                value[...] = xp.asarray(dataset)
            return value
        if not _castable(dataset, value):
            raise TypeError(
                f'cannot load {key!r}{self._where()}: the file holds a {dataset.dtype} array, '
                f'which does not convert safely to {type(value).__name__}')
        item = dataset[()]
        if isinstance(value, str):
            return str(item)
        return type(value)(item)


class _CheckingNpzDeserializer(NpzDeserializer):
    """Dry run of a load: checks keys, shapes and types and changes nothing.

    Values are returned untouched (and ``None`` for anything that would be
    created from the file), so ``serialize`` methods leave their object as it
    was. :func:`load_npz` runs this before the real load, which makes a failed
    load leave the object unchanged.
    """

    def _assign(self, key, dataset, value):
        if value is None or (dataset.dtype == object and dataset.shape == ()):
            return value
        if hasattr(value, 'shape') and hasattr(value, 'dtype') and not numpy.isscalar(value):
            _files.check_shape(key, dataset, value, self._where())
        elif not _castable(dataset, value):
            super()._assign(key, dataset, value)  # raises the TypeError
        return value


def load_npz(file, obj, path='', strict=True, ignore_names=None):
    """Loads an object's state from an ``.npz`` file written by :func:`save_npz`.

    Loading is all or nothing: the file is read and checked whole (including
    that every key the object asks for exists, with a matching shape) before
    anything is changed, so a failed load leaves ``obj`` as it was. Entries
    holding pickled objects are refused unless they are ``None``.

    Args:
        file (str, path-like or file object): The file.
        obj: Object with a ``serialize`` method to fill.
        path (str): Prefix of the keys to load (a sub-tree of the file, such
            as ``'updater/model:main/'`` in a trainer snapshot).
        strict (bool): If ``True``, a key missing from the file is an error.
        ignore_names (str, list of str or callable): Keys not to load.
    """
    arrays = _files.read_npz(file)
    source = _files.describe(file)
    _CheckingNpzDeserializer(arrays, path, strict, ignore_names, source).load(obj)
    NpzDeserializer(arrays, path, strict, ignore_names, source).load(obj)
