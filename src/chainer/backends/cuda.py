"""Devices, array transfers and kernel caching on top of CuPy.

CuPy is optional (``pip install rechainer[cuda]``). It is imported the first
time it is needed, never by ``import chainer``. The names below that come
from CuPy are resolved on first access, which is also when the import of CuPy
is tried:

============================ =====================================
name                         value (placeholder without CuPy)
============================ =====================================
``available``                whether CuPy could be imported
``cupy``, ``cupyx``          the modules (objects that raise)
``cuda``                     ``cupy.cuda`` (an object that raises)
``ndarray``                  ``cupy.ndarray`` (a never-instantiated class)
``Device``                   ``cupy.cuda.Device`` (ditto)
``Event``, ``Stream``        ``cupy.cuda.Event``/``Stream`` (ditto)
``memory_pool``              ``cupy.get_default_memory_pool()``
``pinned_memory_pool``       ``cupy.get_default_pinned_memory_pool()``
============================ =====================================

The placeholders keep ``isinstance(x, cuda.ndarray)`` and ``xp is cuda.cupy``
working (both are simply false) and turn any real use into a clear
:class:`RuntimeError`. rechainer never uses cuDNN: ``cudnn_enabled`` is
``False`` and ``should_use_cudnn`` always answers ``False``.
"""
import contextlib
import functools
import os
import sys
import warnings
import weakref

import numpy

from chainer import _backend
from chainer.backends import _cpu

cudnn_enabled = False

_cupy = None  # the cupy module once imported successfully
_import_error = None  # why importing CuPy failed, once tried
_tried = False

# Module attributes provided by _load(); read through __getattr__ until then.
_LAZY_NAMES = frozenset(
    ('available', 'cupy', 'cupyx', 'cuda', 'ndarray', 'Device', 'Event', 'Stream'))
_POOL_FACTORIES = {
    'memory_pool': 'get_default_memory_pool',
    'pinned_memory_pool': 'get_default_pinned_memory_pool',
}


def _unavailable_message():
    reason = f' ({type(_import_error).__name__}: {_import_error})' if _import_error else ''
    return (
        'CUDA environment is not correctly set up: CuPy could not be imported'
        f'{reason}.\nInstall it with `pip install rechainer[cuda]`, or install '
        'the CuPy wheel matching your CUDA version, e.g. `pip install cupy-cuda12x`.')


class _MissingModule:
    """Stands for a CuPy module when CuPy is not installed.

    Identity comparisons (``xp is cuda.cupy``) work; any attribute access
    raises the installation hint.
    """

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        if attr.startswith('__'):  # keep copy, pickle, inspect... probing quiet
            raise AttributeError(attr)
        check_cuda_available()

    def __repr__(self):
        return f'<{self._name} (not available: CuPy is not installed)>'


def _missing_class(name):
    """A class standing for a CuPy class: ``isinstance`` is always false."""

    def __new__(cls, *args, **kwargs):
        check_cuda_available()

    return type(name, (), {
        '__new__': __new__,
        '__module__': __name__,
        '__doc__': f'Placeholder for ``{name}`` of CuPy, which is not available.',
    })


def _load():
    """Imports CuPy on first call and fills in the lazy module attributes.

    Returns:
        The ``cupy`` module, or ``None`` if CuPy cannot be imported.
    """
    global _cupy, _import_error, _tried
    if _tried:
        return _cupy
    g = globals()
    try:
        import cupy
        import cupy.cuda
        import cupyx
    except Exception as e:  # a broken CUDA setup can raise more than ImportError
        _import_error = e
        g.update(
            available=False,
            cupy=_MissingModule('cupy'),
            cupyx=_MissingModule('cupyx'),
            cuda=_MissingModule('cupy.cuda'),
            ndarray=_missing_class('ndarray'),
            Device=_missing_class('Device'),
            Event=_missing_class('Event'),
            Stream=_missing_class('Stream'),
        )
    else:
        _cupy = cupy
        seed = os.environ.get('CHAINER_SEED')
        if seed is not None:
            # Documented: the default seed of the GPU random number generators.
            cupy.random.seed(int(seed))
        g.update(
            available=True,
            cupy=cupy,
            cupyx=cupyx,
            cuda=cupy.cuda,
            ndarray=cupy.ndarray,
            Device=cupy.cuda.Device,
            Event=cupy.cuda.Event,
            Stream=cupy.cuda.Stream,
        )
    _tried = True
    return _cupy


def __getattr__(name):
    # PEP 562: only called for names not (yet) in the module namespace.
    if name in _LAZY_NAMES:
        _load()
        return globals()[name]
    factory = _POOL_FACTORIES.get(name)
    if factory is not None:
        cupy = _load()
        if cupy is None:
            raise AttributeError(f'{name} needs CuPy. {_unavailable_message()}')
        pool = globals()[name] = getattr(cupy, factory)()
        return pool
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')


def _cupy_if_loaded():
    """The cupy module if some code already imported it, else ``None``.

    Never imports CuPy itself: when CuPy is not in ``sys.modules`` no CuPy
    array can exist, so CPU code paths stay free of the import.
    """
    if _cupy is not None:
        return _cupy
    if 'cupy' in sys.modules:
        return _load()
    return None


def _require():
    """Returns the cupy module, raising the installation hint if missing."""
    cupy = _cupy if _cupy is not None else _load()
    if cupy is None:
        raise RuntimeError(_unavailable_message())
    return cupy


def check_cuda_available():
    """Checks that CuPy can be used.

    Raises:
        RuntimeError: CuPy is not installed or cannot be imported. The message
            says how to install it.
    """
    _require()


def _device_of(array):
    """The ``cupy.cuda.Device`` holding a CuPy array."""
    device = array.device
    if isinstance(device, _cupy.cuda.Device):
        return device
    return _cupy.cuda.Device(array.data.device_id)


def _is_int(x):
    return isinstance(x, (int, numpy.integer)) and not isinstance(x, bool)


class DummyDeviceType:
    """A no-op stand-in for a CUDA device, meaning "the CPU".

    Its ``id`` is ``-1``; ``use``, ``synchronize`` and the ``with`` statement
    do nothing. Use the single instance :data:`DummyDevice`.
    """

    id = -1

    def __init__(self):
        pass

    def __int__(self):
        return -1

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        pass

    def use(self):
        """Does nothing."""
        pass

    def synchronize(self):
        """Does nothing."""
        pass

    def __eq__(self, other):
        return isinstance(other, DummyDeviceType)

    def __ne__(self, other):
        return not isinstance(other, DummyDeviceType)

    def __hash__(self):
        return hash(DummyDeviceType)

    def __repr__(self):
        return '<DummyDevice>'


DummyDevice = DummyDeviceType()
"""The dummy device object, returned where "no GPU" is meant."""


# ------------------------------------------------------------------------------
# Devices
# ------------------------------------------------------------------------------

class GpuDevice(_backend.Device):
    """Device for the GPU (CuPy) backend; its name is ``'@cupy:N'``.

    Args:
        device (cupy.cuda.Device): The CUDA device.

    Attributes:
        device (cupy.cuda.Device): The CUDA device.
    """

    def __init__(self, device):
        cupy = _require()
        if not isinstance(device, cupy.cuda.Device):
            raise TypeError(f'GpuDevice requires a cupy.cuda.Device, got {type(device)}')
        self.device = device

    @staticmethod
    def from_device_id(device_id):
        """Returns the :class:`GpuDevice` for a CUDA device ID.

        Raises:
            ValueError: ``device_id`` is not a non-negative integer.
            RuntimeError: CuPy is not available.
        """
        if not _is_int(device_id) or device_id < 0:
            raise ValueError(f'invalid CUDA device ID: {device_id!r} (expected an int >= 0)')
        return GpuDevice(_require().cuda.Device(int(device_id)))

    @staticmethod
    def from_array(array):
        """Returns the :class:`GpuDevice` of a CuPy array, ``None`` otherwise."""
        cupy = _cupy_if_loaded()
        if cupy is not None and isinstance(array, cupy.ndarray):
            return GpuDevice(_device_of(array))
        return None

    @property
    def xp(self):
        return _cupy

    @property
    def supported_array_types(self):
        return (_cupy.ndarray,)

    @property
    def name(self):
        return f'@cupy:{self.device.id}'

    __hash__ = _backend.Device.__hash__

    def __eq__(self, other):
        return isinstance(other, GpuDevice) and other.device.id == self.device.id

    def __repr__(self):
        return f'<GpuDevice (cupy):{self.device.id}>'

    def create_context(self):
        # A fresh cupy Device object: its context manager is not re-entrant.
        return _cupy.cuda.Device(self.device.id)

    def send_array(self, array):
        return _array_to_gpu(array, self.device, None)

    def use(self):
        self.device.use()

    def is_array_supported(self, array):
        return isinstance(array, _cupy.ndarray) and _device_of(array).id == self.device.id


def get_device_from_id(device_id):
    """Returns the CUDA device for an ID.

    Args:
        device_id (int or None): Device ID. ``None`` (or, as elsewhere in
            Chainer, a negative ID) means the CPU.

    Returns:
        ``cupy.cuda.Device``, or :data:`DummyDevice` for the CPU.
    """
    if device_id is None:
        return DummyDevice
    if not _is_int(device_id):
        raise TypeError(f'a CUDA device ID must be an int or None, got {type(device_id)}')
    if device_id < 0:
        return DummyDevice
    return _require().cuda.Device(int(device_id))


def get_device_from_array(*arrays):
    """Returns the CUDA device of the first CuPy array among ``arrays``.

    Only CuPy arrays are looked at (not Variables). A list or tuple argument
    is searched too.

    Returns:
        ``cupy.cuda.Device``, or :data:`DummyDevice` if there is no CuPy array.
    """
    cupy = _cupy_if_loaded()
    if cupy is None:
        return DummyDevice
    for array in arrays:
        candidates = array if isinstance(array, (list, tuple)) else (array,)
        for a in candidates:
            if isinstance(a, cupy.ndarray):
                return _device_of(a)
    return DummyDevice


def get_device(*args):
    """Returns a CUDA device from a device, an ID or an array (deprecated).

    Use :func:`get_device_from_id` or :func:`get_device_from_array` instead.
    The first integer, CuPy array or ``cupy.cuda.Device`` in ``args`` decides;
    with none of them, :data:`DummyDevice` is returned.
    """
    warnings.warn(
        'chainer.backends.cuda.get_device is deprecated; use get_device_from_id '
        'or get_device_from_array instead.', DeprecationWarning, stacklevel=2)
    cupy = _cupy_if_loaded()
    for arg in args:
        if _is_int(arg):
            return get_device_from_id(arg)
        if cupy is not None:
            if isinstance(arg, cupy.ndarray):
                return _device_of(arg)
            if isinstance(arg, cupy.cuda.Device):
                return arg
    return DummyDevice


def _as_cupy_device(spec):
    """Resolves a CUDA device specifier to a ``cupy.cuda.Device``.

    ``None`` and :data:`DummyDevice` give ``None`` (meaning the current
    device). Accepted otherwise: an int >= 0, a ``cupy.cuda.Device``, a
    :class:`GpuDevice`, a string such as ``'@cupy:0'`` and a CuPy array.
    """
    if spec is None or isinstance(spec, DummyDeviceType):
        return None
    cupy = _require()
    if isinstance(spec, cupy.cuda.Device):
        return spec
    if isinstance(spec, GpuDevice):
        return spec.device
    if isinstance(spec, cupy.ndarray):
        return _device_of(spec)
    if _is_int(spec):
        if spec < 0:
            raise ValueError(f'expected a GPU device, got the CPU device ID {spec}')
        return cupy.cuda.Device(int(spec))
    if isinstance(spec, (str, _backend.Device)):
        from chainer import backend
        device = backend.get_device(spec)
        if not isinstance(device, GpuDevice):
            raise ValueError(f'expected a GPU device, got {device!r}')
        return device.device
    raise TypeError(f'invalid CUDA device specifier of type {type(spec)}')


# ------------------------------------------------------------------------------
# Transfers
# ------------------------------------------------------------------------------

def _array_to_gpu(array, device, stream):
    """Copies one array to ``device`` (``None``: the current device)."""
    if array is None:
        return None
    cupy = _require()
    if isinstance(array, cupy.ndarray):
        if device is None or _device_of(array).id == device.id:
            return array
        with device:
            return array.copy()  # cupy copies across devices into the current one
    if isinstance(array, _cpu._scalar_types):
        array = numpy.asarray(array)
    if not isinstance(array, numpy.ndarray):
        raise TypeError(
            'an array sent to the GPU must be a NumPy or CuPy array or a scalar, '
            f'got {type(array)}')
    with device if device is not None else contextlib.nullcontext():
        if stream is None:
            return cupy.asarray(array)
        out = cupy.empty(array.shape, array.dtype)
        out.set(numpy.ascontiguousarray(array), stream=stream)
        return out


def to_gpu(array, device=None, stream=None):
    """Copies CPU array(s) to a GPU.

    Args:
        array: An array, a scalar, ``None``, or a list/tuple/dict of them.
        device: CUDA device specifier (an int, ``cupy.cuda.Device``,
            :class:`GpuDevice` or ``'@cupy:N'``). ``None`` or
            :data:`DummyDevice` selects the current CUDA device.
        stream (cupy.cuda.Stream): Deprecated. If given, the host-to-device
            copy is issued on this stream.

    Returns:
        The array(s) on the GPU, in the same structure as ``array``. Arrays
        already on the target GPU (or on any GPU when ``device`` is ``None``)
        are returned without copying; ``None`` stays ``None``.

    Raises:
        RuntimeError: CuPy is not available.
    """
    if stream is not None:
        warnings.warn(
            'the stream argument of chainer.backends.cuda.to_gpu is deprecated.',
            DeprecationWarning, stacklevel=2)
    _require()
    device = _as_cupy_device(device)
    return _backend._convert_arrays(array, lambda a: _array_to_gpu(a, device, stream))


def to_cpu(array, stream=None):
    """Copies GPU array(s) to the host.

    Args:
        array: An array, a scalar, ``None``, or a list/tuple/dict of them.
        stream (cupy.cuda.Stream): CUDA stream used for device-to-host copies.

    Returns:
        NumPy array(s) in the same structure as ``array``. NumPy arrays are
        returned as they are (no copy); scalars become 0-dim arrays and
        ``None`` stays ``None``.
    """
    if type(array) is numpy.ndarray:  # the common case, kept cheap
        return array
    return _backend._convert_arrays(array, lambda a: _cpu._array_to_cpu(a, stream))


def copy(array, out=None, out_device=None, stream=None):
    """Copies a CuPy array, possibly to another GPU.

    Args:
        array (cupy.ndarray): Array to copy.
        out (cupy.ndarray): Destination array. When given, ``out_device`` is
            ignored.
        out_device: Device specifier for a newly allocated destination (an
            int, ``cupy.cuda.Device``, :class:`GpuDevice`, ``'@cupy:N'``).
            Defaults to the device of ``array``.
        stream (cupy.cuda.Stream): CUDA stream for the copy.

    Returns:
        cupy.ndarray: The copy.
    """
    cupy = _require()
    if not isinstance(array, cupy.ndarray):
        raise TypeError(f'cuda.copy requires a cupy.ndarray, got {type(array)}')
    src_device = _device_of(array)
    if out is None:
        dst_device = _as_cupy_device(out_device) if out_device is not None else None
        with dst_device if dst_device is not None else src_device:
            out = cupy.empty_like(array)
    with src_device:
        with stream if stream is not None else contextlib.nullcontext():
            cupy.copyto(out, array)
    return out


def get_array_module(*args):
    """Returns ``numpy`` or ``cupy`` for the arguments (deprecated alias).

    Same as :func:`chainer.backend.get_array_module`, which should be used
    instead.
    """
    from chainer import backend
    return backend.get_array_module(*args)


# ------------------------------------------------------------------------------
# Kernel definition utilities
# ------------------------------------------------------------------------------

class _Memo(dict):
    """A memoize cache: a dict that can be weakly referenced and put in a set."""

    __eq__ = object.__eq__  # identity, so that empty caches stay distinct
    __hash__ = object.__hash__


_memos = weakref.WeakSet()  # every live memoize cache, for clear_memo()
_KWARGS_MARK = object()  # separates positional from keyword arguments in memo keys


def _current_device_id():
    cupy = _cupy_if_loaded()
    if cupy is None:
        return -1
    try:
        return cupy.cuda.get_device_id()
    except Exception:  # CuPy imported on a machine without a usable GPU
        return -1


def memoize(for_each_device=False):
    """Makes a function cache its result for each argument combination.

    Like ``cupy.memoize``, but usable without CuPy (then the "device" is
    always the CPU). Arguments must be hashable to be cached; calls with
    unhashable arguments simply run the function.

    Args:
        for_each_device (bool): Keep a separate result per current CUDA
            device (useful for compiled kernels).
    """
    if callable(for_each_device):  # tolerate the bare @memoize form
        return memoize()(for_each_device)

    def decorator(f):
        memo = _Memo()
        _memos.add(memo)

        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            key = args + (_KWARGS_MARK, *sorted(kwargs.items())) if kwargs else args
            if for_each_device:
                key = (_current_device_id(), key)
            try:
                return memo[key]
            except KeyError:
                pass
            except TypeError:  # unhashable arguments: nothing to cache
                return f(*args, **kwargs)
            result = memo[key] = f(*args, **kwargs)
            return result

        wrapper._memo = memo  # the cache itself, for tests and debugging
        return wrapper

    return decorator


def clear_memo():
    """Empties the caches of every function decorated with :func:`memoize`."""
    for memo in list(_memos):
        memo.clear()
    cupy = _cupy_if_loaded()
    if cupy is not None:
        cupy.clear_memo()


@memoize(for_each_device=True)
def elementwise(in_params, out_params, operation, name, **kwargs):
    """Creates (and caches per device) a ``cupy.ElementwiseKernel``.

    The arguments are those of ``cupy.ElementwiseKernel``, except that
    ``name`` is required.
    """
    return _require().ElementwiseKernel(in_params, out_params, operation, name, **kwargs)


@memoize(for_each_device=True)
def reduce(in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name,
           **kwargs):
    """Creates (and caches per device) a ``cupy.ReductionKernel``.

    The arguments are those of ``cupy.ReductionKernel``, except that
    ``post_map_expr``, ``identity`` and ``name`` are required.
    """
    return _require().ReductionKernel(
        in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name,
        **kwargs)


@memoize(for_each_device=True)
def raw(code, name, *args, **kwargs):
    """Creates (and caches per device) a ``cupy.RawKernel``.

    The arguments are those of ``cupy.RawKernel``.
    """
    return _require().RawKernel(code, name, *args, **kwargs)


def fuse(*args, **kwargs):
    """Decorator that fuses a function into one kernel on the GPU.

    Used as ``@fuse`` or ``@fuse(kernel_name=...)``. Called with CuPy arrays,
    the function runs as ``cupy.fuse`` of it (built on first such call);
    otherwise — NumPy inputs, or no CuPy at all — the plain Python function
    runs.
    """
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _fused(args[0], {})
    if args:
        raise TypeError('fuse takes a function, or keyword arguments only')
    return lambda f: _fused(f, kwargs)


def _fused(func, fuse_kwargs):
    gpu_func = None

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        nonlocal gpu_func
        cupy = _cupy_if_loaded()
        if cupy is None or not any(isinstance(a, cupy.ndarray) for a in args):
            return func(*args, **kwargs)
        if gpu_func is None:
            gpu_func = cupy.fuse(**fuse_kwargs)(func)
        return gpu_func(*args, **kwargs)

    return wrapper


# ------------------------------------------------------------------------------
# cuDNN (never used by rechainer; kept for API compatibility)
# ------------------------------------------------------------------------------

_max_workspace_size = 8 * 1024 * 1024


def set_max_workspace_size(size):
    """Sets the cuDNN workspace size (recorded only: rechainer uses no cuDNN).

    Args:
        size (int): The workspace size in bytes.
    """
    global _max_workspace_size
    _max_workspace_size = size


def get_max_workspace_size():
    """Returns the cuDNN workspace size set by :func:`set_max_workspace_size`.

    Returns:
        int: The workspace size in bytes (8 MiB by default).
    """
    return _max_workspace_size


def should_use_cudnn(level, lowest_version=0):
    """Tells whether cuDNN should be used; always ``False`` in rechainer.

    Args:
        level (str): ``'==always'`` or ``'>=auto'``.
        lowest_version (int): Minimum cuDNN version required.
    """
    return False


def should_use_cudnn_tensor_core(dtype):
    """Tells whether cuDNN Tensor Cores should be used; always ``False``."""
    return False


def get_cudnn_dropout_states():
    """cuDNN's dropout states of this thread; rechainer never uses cuDNN (RuntimeError)."""
    return get_cudnn_dropout_states_core(None)


def get_cudnn_dropout_states_core(thread_id):
    """cuDNN's dropout states of thread ``thread_id``; rechainer never uses cuDNN
    (RuntimeError)."""
    raise RuntimeError('cuDNN is not available in rechainer: there are no cuDNN dropout '
                       'states (chainer.backends.cuda.cudnn_enabled is False)')
