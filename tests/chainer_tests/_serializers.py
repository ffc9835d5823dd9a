"""A dict-backed serializer pair with the contract of Chainer's serializers.

``serialize(serializer)`` methods are written against this contract:
``serializer(key, value)`` returns the value (saved, or loaded in its place),
``serializer['child']`` gives a sub-scope whose keys are ``child/<key>``, and a
deserializer raises ``KeyError`` for a key that was never saved. Saving stores
NumPy arrays, as ``DictionarySerializer`` does; loading converts back to the
type of ``value`` (copying into it when it is an array), as ``NpzDeserializer``
does.
"""
import numpy

from chainer import serializer


class DictSaver(serializer.Serializer):

    def __init__(self, target=None, path=''):
        self.target = {} if target is None else target
        self.path = path

    def __getitem__(self, name):
        return DictSaver(self.target, self.path + name + '/')

    def __call__(self, key, value):
        self.target[self.path + key] = numpy.asarray(value)
        return value


class DictLoader(serializer.Deserializer):

    def __init__(self, target, path=''):
        self.target = target
        self.path = path

    def __getitem__(self, name):
        return DictLoader(self.target, self.path + name + '/')

    def __call__(self, key, value):
        stored = self.target[self.path + key]  # KeyError for a missing key
        if value is None:
            return stored
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, stored)
            return value
        if isinstance(value, str):
            return str(stored)
        converted = type(value)(stored)
        if converted != stored:
            # Like rechainer's NpzDeserializer: never narrow (e.g. 0.5 into an int).
            raise TypeError(f'cannot load {self.path + key}: {stored!r} does not fit '
                            f'{type(value).__name__}')
        return converted


def save(obj):
    """Returns the dict ``obj.serialize`` writes."""
    target = {}
    obj.serialize(DictSaver(target))
    return target


def load(target, obj):
    """Loads ``target`` (from :func:`save`) into ``obj``."""
    obj.serialize(DictLoader(target))
