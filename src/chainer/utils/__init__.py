"""Utilities shared across Chainer: type checks, argument parsing, array helpers."""
import collections.abc as collections_abc  # NOQA  (Chainer's name for it)
import contextlib
import functools
import importlib
import shutil
import tempfile

import numpy

from chainer import _lazy
from chainer.utils.array import size_of_shape, sum_to  # NOQA
from chainer.utils.conv import get_conv_outsize, get_deconv_outsize  # NOQA
from chainer.utils.error import _format_array_props  # NOQA
from chainer.utils.experimental import experimental  # NOQA
from chainer.utils.meta import enable_final, final  # NOQA
from chainer.utils.nondeterministic import nondeterministic  # NOQA
from chainer.utils.precision import _half_if_single


def force_array(x, dtype=None):
    """Makes sure a computation result is an array.

    NumPy returns scalars instead of 0-d arrays from some operations; this
    turns such scalars back into 0-d arrays. Arrays pass through unchanged
    (or cast without copying when ``dtype`` is given).

    Args:
        x: Array or scalar.
        dtype: Optional target dtype.

    Returns:
        array: ``x`` as an array.
    """
    if numpy.isscalar(x):
        return numpy.array(x, dtype)
    if dtype is None:
        return x
    return x.astype(dtype, copy=False)


def force_type(dtype, value):
    """Casts a scalar or array to ``dtype`` (no copy when it already matches).

    Args:
        dtype (numpy.dtype): Target dtype.
        value: Scalar or array.
    """
    if numpy.isscalar(value):
        return numpy.dtype(dtype).type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


@contextlib.contextmanager
def tempdir(**kwargs):
    """Context manager giving a fresh temporary directory, removed on exit.

    Args:
        kwargs: Passed to :func:`tempfile.mkdtemp` (``suffix``, ``prefix``,
            ``dir``), plus ``ignore_errors`` (bool) for the removal.

    Yields:
        str: The path of the directory.
    """
    ignore_errors = kwargs.pop('ignore_errors', False)
    path = tempfile.mkdtemp(**kwargs)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=ignore_errors)


def mixed_presision(fn):
    """Decorates ``forward(self, inputs)`` to compute float16 in float32.

    When any input is float16, float16 inputs are cast to float32 before the
    call and float32 outputs are cast back to float16 afterwards; otherwise
    the method runs untouched. (The name keeps Chainer's spelling.)
    """
    @functools.wraps(fn)
    def wrapper(self, inputs, *args, **kwargs):
        if not any(_is_half(x) for x in inputs):
            return fn(self, inputs, *args, **kwargs)
        inputs = tuple(x.astype(numpy.float32) if _is_half(x) else x for x in inputs)
        outputs = fn(self, inputs, *args, **kwargs)
        if isinstance(outputs, (tuple, list)):
            return type(outputs)(_to_half(y) for y in outputs)
        return _to_half(outputs)
    return wrapper


def _is_half(x):
    return x is not None and getattr(x, 'dtype', None) == numpy.float16


_to_half = _half_if_single


def _raise_from(exc_type, message, orig_exc):
    # Raises exc_type with the original error's type and message appended, for
    # errors that wrap another one while keeping its text in view.
    raise exc_type(
        f'{message}\n\n(caused by)\n{type(orig_exc).__name__}: {orig_exc}\n') from orig_exc


def _check_arrays_forward_compatible(arrays, label=None):
    """Raises TypeError unless the arrays (``None`` ignored) share one backend."""
    from chainer import backend
    if backend.is_arrays_compatible(arrays):
        return
    where = '' if label is None else f' ({label})'
    types = ', '.join(str(type(a)) for a in arrays if a is not None)
    raise TypeError(
        f'incompatible array types are mixed in the forward input{where}: all must be '
        f'NumPy arrays or all CuPy arrays.\nActual: {types}')


def _repr_with_named_data(inst, **kwargs):
    # <module.Class name=value ...>, the repr of objects that show a few fields.
    cls = type(inst)
    fields = ' '.join(f'{k}={v}' for k, v in kwargs.items())
    return f'<{cls.__module__}.{cls.__qualname__} {fields}>'


# Names that live in modules owned elsewhere; imported on first use so this
# package stays cheap to import and works before those modules exist.
_LAZY_NAMES = {
    'WalkerAlias': 'walker_alias',
    'CooMatrix': 'sparse',
    'get_order': 'sparse',
    'to_coo': 'sparse',
}

# Submodules that `chainer.utils.<name>` reaches without an import statement.
_LAZY_SUBMODULES = frozenset((
    'argument', 'array', 'cache', 'conv', 'conv_nd', 'error', 'imgproc',
    'meta', 'precision', 'sparse', 'type_check', 'walker_alias',
))


def __getattr__(name):
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f'chainer.utils.{name}')
    module = _LAZY_NAMES.get(name)
    if module is None:
        submodule = _lazy.import_submodule(__name__, name)
        if submodule is not None:
            return submodule
        raise AttributeError(f"module 'chainer.utils' has no attribute '{name}'")
    try:
        return getattr(importlib.import_module(f'chainer.utils.{module}'), name)
    except ModuleNotFoundError as e:
        if e.name != f'chainer.utils.{module}':
            raise
        raise AttributeError(f'chainer.utils.{name} is not available: {e}') from None
