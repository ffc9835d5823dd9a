"""Initializers: objects that fill parameter arrays."""
from chainer import _lazy
import numpy

import chainer
from chainer import backend
from chainer.initializers.constant import Constant, Identity, NaN, One, Zero  # NOQA
from chainer.initializers.normal import GlorotNormal, HeNormal, LeCunNormal, Normal  # NOQA
from chainer.initializers.orthogonal import Orthogonal  # NOQA
from chainer.initializers.sampling import DownsamplingConvFilter  # NOQA
from chainer.initializers.sampling import UpsamplingDeconvFilter  # NOQA
from chainer.initializers.uniform import GlorotUniform, HeUniform, LeCunUniform  # NOQA
from chainer.initializers.uniform import Uniform  # NOQA


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


def _is_array(x):
    return isinstance(x, chainer.get_array_types())


def _check_is_initializer_like(initializer):
    # What links accept as an initializer argument: None, a scalar, an array or a callable.
    if not (initializer is None or numpy.isscalar(initializer) or _is_array(initializer)
            or callable(initializer)):
        raise TypeError(f'invalid type of initializer: {type(initializer)} (expected an '
                        f'Initializer, a callable, a scalar, an array or None)')


def _get_initializer(initializer):
    """Turns a link's initializer argument into an initializer.

    ``None`` gives :class:`LeCunNormal`, a scalar or an array a :class:`Constant`, and a
    callable is returned as is.
    """
    if initializer is None:
        return LeCunNormal()
    if numpy.isscalar(initializer) or _is_array(initializer):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError(f'invalid type of initializer: {type(initializer)} (expected an '
                        f'Initializer, a callable, a scalar, an array or None)')
    return initializer

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
