"""Initializers: objects that fill parameter arrays."""
import numpy

import chainer
from chainer import backend
from chainer.initializers.constant import Constant, Identity, NaN, One, Zero  # NOQA


def generate_array(initializer, shape, xp, dtype=None, device=None):
    """Creates an array of ``shape`` filled by ``initializer``.

    Args:
        initializer: A callable that fills an array in place.
        shape (int or tuple of int): Shape of the array.
        xp (module): numpy or cupy.
        dtype: Data type (default: the initializer's, else ``chainer.config.dtype``).
        device: Device to allocate on (default: from ``xp``).

    Returns:
        N-dimensional array: The initialized array.
    """
    dtype_attr = getattr(initializer, 'dtype', None)
    if dtype is not None and dtype_attr is not None and numpy.dtype(dtype) != numpy.dtype(
            dtype_attr):
        raise ValueError(f'dtype mismatch: initializer has {numpy.dtype(dtype_attr)}, '
                         f'{numpy.dtype(dtype)} was requested')
    if dtype is None:
        dtype = dtype_attr
    dtype = chainer.get_dtype(dtype)
    if isinstance(shape, int):
        shape = (shape,)
    if device is None:
        device = backend.get_device(xp) if xp is not numpy else backend.CpuDevice()
    with chainer.using_device(device):
        array = device.xp.empty(shape, dtype=dtype)
    initializer(array)
    return array
