"""The evaluation functions; each lives in its own module of this package."""
import importlib


def __getattr__(name):
    # Submodules load on first use (``chainer.functions.evaluation.<module>`` works as in
    # Chainer, whose package imports them all up front).
    if name.startswith('_'):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        return importlib.import_module(f'{__name__}.{name}')
    except ModuleNotFoundError as e:
        if e.name != f'{__name__}.{name}':
            raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
