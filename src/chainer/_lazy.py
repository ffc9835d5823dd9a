"""Submodules as attributes of their package, imported on first access.

Chainer imports all of its modules at ``import chainer``, so that any module is an attribute
of its package (``chainer.functions.math.exponential``) without an import of its own. rechainer
imports a module when it is first used, which keeps ``import chainer`` fast; a package gives the
same attribute access by defining its module ``__getattr__`` with :func:`submodule_getattr`.
"""
import importlib


def import_submodule(package, name):
    """The submodule ``package.name``, imported now; None if there is no such module."""
    if name.startswith('__'):
        return None
    full = f'{package}.{name}'
    try:
        return importlib.import_module(full)
    except ModuleNotFoundError as e:
        if e.name != full:
            raise       # the submodule exists, but something it imports does not
        return None


def submodule_getattr(package, fallback=None):
    """A module ``__getattr__`` for ``package``: its submodules, then ``fallback(name)``.

    Args:
        package (str): The package's ``__name__``.
        fallback (callable): Called with a name that is not a submodule; it returns the value or
            raises AttributeError. By default such a name is an AttributeError.
    """
    def __getattr__(name):
        module = import_submodule(package, name)
        if module is not None:
            return module
        if fallback is not None:
            return fallback(name)
        raise AttributeError(f'module {package!r} has no attribute {name!r}')
    return __getattr__
