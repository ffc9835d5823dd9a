"""Links: layers with parameters (``chainer.links``, usually imported as ``L``).

Each link lives at the same module path as in Chainer
(``chainer.links.connection.linear``...). This package only re-exports them; a
module is imported the first time one of its names is used, which keeps
``import chainer`` fast. A new link adds one line to ``_MODULES``.
"""
import importlib

# module (relative to this package) -> public names it provides
_MODULES = {
    # connection
    'connection.embed_id': 'EmbedID',
    'connection.linear': 'Linear',
}

_NAME_TO_MODULE = {name: mod for mod, names in _MODULES.items() for name in names.split()}
__all__ = sorted(_NAME_TO_MODULE)


def __getattr__(name):
    mod = _NAME_TO_MODULE.get(name)
    if mod is None:
        raise AttributeError(f"module 'chainer.links' has no attribute '{name}'")
    value = getattr(importlib.import_module('chainer.links.' + mod), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
