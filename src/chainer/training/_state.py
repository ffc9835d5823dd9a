"""Optional parts of a saved state: keys rechainer adds to Chainer's layout.

rechainer saves a little more than Chainer 7 (the trigger and running
summary of some extensions), so that a resumed run continues exactly. Files
written by Chainer lack those keys and must still load: such parts are
loaded only when present.
"""
from chainer import serializer as serializer_module


def optional_child(serializer, name):
    """Returns ``serializer[name]``, or ``None`` when loading a file without that part."""
    child = serializer[name]
    if isinstance(serializer, serializer_module.Serializer):
        return child
    npz = getattr(child, 'npz', None)
    path = getattr(child, 'path', None)
    if npz is not None and path is not None:
        return child if any(key.startswith(path) for key in npz) else None
    if hasattr(child, 'group'):  # HDF5: an absent group is None
        return child if child.group is not None else None
    return child


def number(serializer, key, value):
    """Saves or loads a Python number whose type may change (an int sum that became a float).

    A plain ``serializer(key, 0)`` refuses to load a float into an int; this
    loads the stored number as it is.
    """
    if isinstance(serializer, serializer_module.Serializer):
        return serializer(key, value)
    loaded = serializer(key, None)
    if loaded is None:  # a dry run, or None stored
        return value
    return loaded.item() if hasattr(loaded, 'item') else loaded


def serialize_optional(serializer, name, obj):
    """``obj.serialize(serializer[name])``, skipped when loading a file without that part
    (or when ``obj`` has no ``serialize``, as a plain callable trigger)."""
    if not hasattr(obj, 'serialize'):
        return
    child = optional_child(serializer, name)
    if child is not None:
        obj.serialize(child)
