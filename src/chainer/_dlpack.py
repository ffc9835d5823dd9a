"""DLPack exchange: Variables and arrays to and from PyTorch, JAX, NumPy and CuPy, without copies.

``Variable.__dlpack__``/``__dlpack_device__`` delegate here, and
``chainer.backend.from_dlpack`` is :func:`from_dlpack`. The arrays rechainer computes with
(``numpy.ndarray``, ``cupy.ndarray``) speak DLPack themselves.
"""
import numpy

import chainer     # (Variable through the package: it is built on this module)

# DLPack's DLDeviceType codes that rechainer can hold: host memory (NumPy) and CUDA memory
# (CuPy). Pinned (CUDA host) memory is host memory that NumPy can read.
_DL_CPU = 1
_DL_CUDA = 2
_DL_CUDA_HOST = 3
_DL_CUDA_MANAGED = 13


def _array_of(variable, what):
    array = variable.array
    if array is None:
        raise BufferError(f'{what}: the Variable holds no array (its data is None)')
    return array


def dlpack(variable, kwargs):
    """``Variable.__dlpack__``: the data array's DLPack capsule (no copy)."""
    return _array_of(variable, 'Variable.__dlpack__').__dlpack__(**kwargs)


def dlpack_device(variable):
    """``Variable.__dlpack_device__``: ``(device type, device id)`` of the data array."""
    return _array_of(variable, 'Variable.__dlpack_device__').__dlpack_device__()


def to_array(obj):
    """Returns a NumPy or CuPy array that shares the memory of a DLPack exporter.

    Args:
        obj: An object with ``__dlpack__`` and ``__dlpack_device__`` (a PyTorch tensor, a JAX
            array, a NumPy or CuPy array, a Variable).

    Returns:
        numpy.ndarray or cupy.ndarray: A view of the same memory: NumPy for host memory, CuPy
        for CUDA memory.
    """
    if isinstance(obj, chainer.Variable):
        return _array_of(obj, 'from_dlpack')
    if type(obj) is numpy.ndarray:
        return obj
    device = getattr(obj, '__dlpack_device__', None)
    if device is None:
        hint = ''
        if type(obj).__name__ == 'PyCapsule':
            # (torch.utils.dlpack.to_dlpack, cupy.toDlpack): the capsule does not say where
            # its memory is, and a capsule can be consumed once only.
            hint = '; a bare DLPack capsule cannot be taken: pass the tensor or array itself'
        raise TypeError(
            'from_dlpack requires an object with __dlpack__ and __dlpack_device__ (a '
            f'PyTorch tensor, a JAX array, a NumPy or CuPy array), got {type(obj).__name__}'
            + hint)
    kind = int(device()[0])
    if kind in (_DL_CPU, _DL_CUDA_HOST):
        return numpy.from_dlpack(obj)
    if kind in (_DL_CUDA, _DL_CUDA_MANAGED):
        return _cupy('an array in CUDA memory').from_dlpack(obj)
    raise ValueError(f'from_dlpack requires host or CUDA memory, got DLPack device type '
                     f'{kind} ({type(obj).__name__}); move the data to the CPU or a CUDA GPU '
                     'first')


def from_dlpack(obj):
    """Makes a Variable that shares the memory of a PyTorch tensor, a JAX array or any other
    DLPack exporter.

    Host memory becomes a ``numpy.ndarray``, CUDA memory a ``cupy.ndarray``; neither is a
    copy, so writes through one side are seen by the other. This is rechainer's addition to
    Chainer 7's API (which had ``cupy.fromDlpack`` only).

    Args:
        obj: A PyTorch tensor (``detach()`` it first if it requires grad), a JAX array, a
            NumPy or CuPy array, a Variable, or any object with ``__dlpack__`` and
            ``__dlpack_device__``.

    Returns:
        ~chainer.Variable: A Variable whose data is a view of ``obj``'s memory.

    .. admonition:: Example

        >>> import torch                                          # doctest: +SKIP
        >>> t = torch.arange(3.)                                  # doctest: +SKIP
        >>> v = chainer.backend.from_dlpack(t)                    # doctest: +SKIP
        >>> v.array.ctypes.data == t.data_ptr()                   # doctest: +SKIP
        True
    """
    return chainer.Variable(to_array(obj))


def _cupy(what):
    from chainer.backends import cuda
    if not cuda.available:
        raise RuntimeError(f'from_dlpack: {what} needs CuPy with a GPU '
                           '(pip install rechainer[cuda]), which is not available')
    return cuda.cupy

