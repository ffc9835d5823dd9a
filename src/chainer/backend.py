"""Backend selection: NumPy or CuPy array modules, device objects, transfers.

A *device specifier* names where arrays live. :func:`get_device` accepts:

- a :class:`Device` (returned as it is);
- ``'@numpy'`` (CPU), ``'@cupy:N'`` (GPU ``N``), ``'@intel64'`` (iDeep,
  never available here);
- an int or a numeric string: ``>= 0`` is that GPU, negative is the CPU;
- a ``cupy.cuda.Device``, or the ``numpy``/``cupy`` module (the latter
  meaning the current GPU);
- other strings (``'native:0'``, ``'cuda:0'``) are ChainerX devices, which
  rechainer does not have: they raise :class:`RuntimeError`.
"""
import sys

import numpy

import chainerx
from chainer._backend import Device  # NOQA
from chainer._dlpack import from_dlpack  # NOQA
from chainer.backends import _chainerx  # NOQA
from chainer.backends import _cpu
from chainer.backends import cuda
from chainer.backends import intel64  # NOQA
from chainer.backends._chainerx import ChainerxDevice  # NOQA
from chainer.backends._chainerx import from_chx  # NOQA
from chainer.backends._chainerx import to_chx  # NOQA
from chainer.backends._cpu import CpuDevice
from chainer.backends.cuda import GpuDevice
from chainer.backends.intel64 import Intel64Device

_modules = sys.modules


def get_array_module(*args):
    """Returns the NumPy-compatible module suited to the arguments.

    Variables count as their data array.

    Args:
        args: Arrays, Variables, scalars or anything else.

    Returns:
        module: ``cupy`` if any argument is (or wraps) a CuPy array,
        ``numpy`` otherwise.
    """
    # Hot path of every op: without CuPy imported, no argument can hold a
    # CuPy array, and one dict lookup settles it.
    if 'cupy' not in _modules:
        return numpy
    return _get_array_module_with_cupy(args)


def _get_array_module_with_cupy(args):
    cupy = cuda._cupy_if_loaded()
    if cupy is None:
        return numpy
    variable = _modules.get('chainer.variable')
    if variable is not None:
        var_type = variable.Variable
        args = [a.array if isinstance(a, var_type) else a for a in args]
    return cupy.get_array_module(*args)


def get_device(device_spec):
    """Returns a :class:`Device` object for a device specifier.

    Args:
        device_spec: A device specifier; see this module's documentation.

    Returns:
        Device: The device.

    Raises:
        ValueError: A malformed ``'@...'`` string or GPU ID.
        TypeError: An object that cannot specify a device.
        RuntimeError: The backend is unavailable (CuPy not installed, iDeep or
            ChainerX requested).
    """
    if isinstance(device_spec, Device):
        return device_spec
    if isinstance(device_spec, str):
        return _parse_device_string(device_spec)
    if cuda._is_int(device_spec):
        return _device_from_int(int(device_spec))
    if device_spec is numpy:
        return CpuDevice()
    if device_spec is chainerx:
        _chainerx._check_chainerx_available()
    cupy = cuda._cupy_if_loaded()
    if cupy is not None:
        if device_spec is cupy:
            return GpuDevice(cupy.cuda.Device())
        if isinstance(device_spec, cupy.cuda.Device):
            return GpuDevice(device_spec)
    raise TypeError(
        'a device specifier must be a chainer.backend.Device, a cupy.cuda.Device, '
        f'an int or a str such as \'@numpy\' or \'@cupy:0\'; got {type(device_spec)}')


def _guess_device_from_array_module(xp):
    """The device that arrays of module ``xp`` are made on: the current GPU for
    ``cupy``, the CPU otherwise."""
    cupy = cuda._cupy_if_loaded()
    if cupy is not None and xp is cupy:
        return GpuDevice(cupy.cuda.Device())
    if xp is chainerx:
        _chainerx._check_chainerx_available()
    return CpuDevice()


def _get_device_cupy_or_numpy(device_spec):
    """Like :func:`get_device`, for the legacy specifiers of ``to_gpu``-era APIs
    (ints: negative for the CPU, ``n >= 0`` for GPU ``n``)."""
    if cuda._is_int(device_spec):
        return _device_from_int(int(device_spec))
    return get_device(device_spec)


def _contains_nan(x):
    """Returns whether the array ``x`` has a NaN (never for integer arrays)."""
    if x.dtype.kind not in 'fc':
        return False
    return bool(get_array_module(x).isnan(x).any())


def _device_from_int(device_id):
    # Chainer's legacy convention: a negative ID is the CPU.
    if device_id < 0:
        return CpuDevice()
    return GpuDevice.from_device_id(device_id)


def _parse_device_string(spec):
    try:
        device_id = int(spec)
    except ValueError:
        pass
    else:
        return _device_from_int(device_id)
    if spec.startswith('@'):
        module, colon, rest = spec[1:].partition(':')
        if module == 'numpy' and not colon:
            return CpuDevice()
        if module == 'cupy' and colon:
            try:
                device_id = int(rest)
            except ValueError:
                device_id = None
            if device_id is not None:
                return GpuDevice.from_device_id(device_id)
        if module == 'intel64' and not colon:
            return Intel64Device()
        raise ValueError(
            f'invalid device specifier {spec!r}: after \'@\' expected \'numpy\', '
            '\'cupy:<device id>\' or \'intel64\'')
    raise RuntimeError(
        f'Tried to parse ChainerX device specifier {spec!r}, but ChainerX is not available. '
        'Note that device specifiers without \'@\' prefix are assumed to be ChainerX device '
        'specifiers. (ChainerX is not available in rechainer: use \'@numpy\' for the CPU or '
        '\'@cupy:<id>\' for a GPU.)')


def using_device(device_spec):
    """Context manager in which the given device is the current one.

    Args:
        device_spec: A device specifier (see :func:`get_device`).

    Example:
        >>> with chainer.using_device('@numpy'):
        ...     pass
    """
    return get_device(device_spec).create_context()


def get_device_from_array(*arrays):
    """Returns the device on which the arrays reside.

    Variables are not looked into: pass ``v.array`` for a Variable ``v``.

    Args:
        arrays: Arrays. The first one that is not a NumPy array decides.

    Returns:
        Device: A :class:`GpuDevice` for the first CuPy array, a
        :class:`CpuDevice` if there is none.
    """
    cupy = cuda._cupy_if_loaded()
    if cupy is not None:
        for array in arrays:
            if isinstance(array, cupy.ndarray):
                return GpuDevice(cuda._device_of(array))
    return CpuDevice()


def copyto(dst, src):
    """Copies the elements of ``src`` into ``dst``, across devices if needed.

    Args:
        dst (numpy.ndarray or cupy.ndarray): Destination array.
        src (numpy.ndarray, cupy.ndarray or scalar): Source array; it is
            broadcast to ``dst``'s shape.
    """
    if isinstance(dst, numpy.ndarray):
        numpy.copyto(dst, _cpu._array_to_cpu(src))
        return
    cupy = cuda._cupy_if_loaded()
    if cupy is None or not isinstance(dst, cupy.ndarray):
        raise TypeError(f'cannot copy to a non-array object of type {type(dst)}')
    with cuda._device_of(dst):
        if isinstance(src, numpy.ndarray):
            if (src.shape == dst.shape and src.dtype == dst.dtype
                    and dst.flags.c_contiguous):
                dst.set(numpy.ascontiguousarray(src))
            else:
                cupy.copyto(dst, cupy.asarray(src))
        elif isinstance(src, (cupy.ndarray,) + _cpu._scalar_types):
            cupy.copyto(dst, src)
        else:
            raise TypeError(f'cannot copy from a non-array object of type {type(src)}')


def is_arrays_compatible(arrays):
    """Tells whether the arrays all belong to one backend.

    Args:
        arrays: Iterable of arrays; ``None`` entries are ignored.

    Returns:
        bool: ``True`` if all are NumPy arrays or all are CuPy arrays (or
        there is no array at all).
    """
    arrays = [a for a in arrays if a is not None]
    if not arrays:
        return True
    first = arrays[0]
    if isinstance(first, numpy.ndarray):
        types = numpy.ndarray
    else:
        cupy = cuda._cupy_if_loaded()
        if cupy is None or not isinstance(first, cupy.ndarray):
            return False
        types = cupy.ndarray
    return all(isinstance(a, types) for a in arrays)
