"""Saving a NumPy generator's state with an object, and restoring it on load."""
import numpy

from chainer import serializer as serializer_module


def global_generator():
    """NumPy's global generator (the one ``numpy.random.seed`` seeds)."""
    return numpy.random.random.__self__


def serialize(serializer, random_state):
    """Saves or restores the state of ``random_state`` (a ``numpy.random.RandomState``).

    Keys: ``mt19937_keys`` (624 uint32), ``mt19937_pos``, ``has_gauss`` and
    ``cached_gaussian``. Loading a file without them (one Chainer wrote) leaves the
    generator as it is.
    """
    _, keys, pos, has_gauss, cached = random_state.get_state(legacy=True)
    if isinstance(serializer, serializer_module.Serializer):
        serializer('mt19937_keys', keys)
        serializer('mt19937_pos', int(pos))
        serializer('has_gauss', int(has_gauss))
        serializer('cached_gaussian', float(cached))
        return
    # Typed destinations: a load's dry run checks shapes and types before anything
    # changes, and returns them as they are (restoring the current state is a no-op).
    try:
        keys = serializer('mt19937_keys', keys.copy())
        pos = serializer('mt19937_pos', int(pos))
        has_gauss = serializer('has_gauss', int(has_gauss))
        cached = serializer('cached_gaussian', float(cached))
    except KeyError:
        return
    random_state.set_state(('MT19937', numpy.asarray(keys, numpy.uint32), int(pos),
                            int(has_gauss), float(cached)))


def serialize_child(serializer, name, random_state):
    """:func:`serialize` under ``serializer[name]``; nothing when loading a file without it."""
    try:
        child = serializer[name]
    except KeyError:  # an HDF5 file without the group
        return
    serialize(child, random_state)
