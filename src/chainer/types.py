"""Type aliases for annotations, as Chainer names them (``chainer.types.Shape``...).

They document what an argument may be; nothing checks them at run time.
"""
import numbers
import typing
from typing import TYPE_CHECKING  # NOQA  (Chainer's module offers it too)

try:
    from typing import Protocol
except ImportError:  # pragma: no cover (Python < 3.8)
    Protocol = object


Shape = typing.Tuple[int, ...]
"""A shape: a tuple of ints."""

ShapeSpec = typing.Union[int, typing.Sequence[int]]
"""What functions accept as a shape: an int or a sequence of ints."""

DTypeSpec = typing.Any
"""What functions accept as a dtype (a NumPy dtype, a type, a name...)."""

NdArray = typing.Union['numpy.ndarray', 'cuda.ndarray', 'chainerx.ndarray']
"""An N-dimensional array of any of the backends."""

Xp = typing.Any
"""An array module: ``numpy`` or ``cupy``."""

ScalarValue = typing.Union['numpy.generic', bytes, str, memoryview, numbers.Number]
"""A scalar value."""


class AbstractInitializer(Protocol):
    """What an initializer offers: a ``dtype`` and a call that fills an array."""

    dtype = None

    def __call__(self, array):
        pass


InitializerSpec = typing.Union[AbstractInitializer, ScalarValue, 'numpy.ndarray']
"""What links accept as an initializer: an initializer, a scalar or an array."""

DeviceSpec = typing.Union['backend.Device', 'chainerx.Device', 'cuda.Device', str,
                          typing.Tuple[str, int], 'ModuleType', typing.Tuple['ModuleType', int]]
"""What ``to_device`` and ``get_device`` accept as a device."""

CudaDeviceSpec = typing.Union['cuda.Device', int, 'numpy.integer']
"""What the CUDA helpers accept as a GPU."""
