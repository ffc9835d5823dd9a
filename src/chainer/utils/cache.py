"""Caching of values computed from Chainer functions."""
import functools

from chainer import configuration


class cached_property:
    """Decorator for a read-only property computed once and then cached.

    The value is cached per ``chainer.config.enable_backprop``: computed with
    backprop on, it carries a graph; computed under ``no_backprop_mode`` it
    does not, so each mode computes (and keeps) its own value. The cache lives
    in the instance's ``__dict__`` under the property's name.

    Args:
        func: The getter, taking the instance.
    """

    def __init__(self, func):
        functools.update_wrapper(self, func)
        self._func = func
        self._name = func.__name__

    def __set_name__(self, owner, name):
        self._name = name

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        cache = obj.__dict__.setdefault(self._name, {})
        mode = bool(configuration.config.enable_backprop)
        try:
            return cache[mode]
        except KeyError:
            value = cache[mode] = self._func(obj)
            return value

    def __set__(self, obj, value):
        raise AttributeError(
            f"cached_property '{self._name}' of {type(obj).__name__} objects cannot be set")

    def __delete__(self, obj):
        raise AttributeError(
            f"cached_property '{self._name}' of {type(obj).__name__} objects cannot be deleted")
