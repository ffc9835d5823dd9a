"""The CPU (NumPy) device."""
import numpy

from chainer import _backend

# Python numbers are accepted wherever Chainer accepts NumPy scalars.
_scalar_types = (numpy.generic, bool, int, float, complex)


def _array_to_cpu(array, stream=None):
    """Returns ``array`` as a NumPy array; NumPy arrays pass through untouched.

    ``stream`` (a ``cupy.cuda.Stream``) only matters for CuPy arrays.
    """
    if array is None or isinstance(array, numpy.ndarray):
        return array
    if isinstance(array, _scalar_types):
        return numpy.asarray(array)
    from chainer.backends import cuda
    cupy = cuda._cupy_if_loaded()
    if cupy is not None and isinstance(array, cupy.ndarray):
        with cuda._device_of(array):
            return array.get(stream=stream)
    raise TypeError(
        'an array sent to the CPU must be a NumPy or CuPy array or a scalar, '
        f'got {type(array)}')


# Chainer's name for it (its tests call it).
_to_cpu = _array_to_cpu


class CpuDevice(_backend.Device):
    """Device for the CPU (NumPy) backend; its name is ``'@numpy'``."""

    xp = numpy
    name = '@numpy'
    supported_array_types = (numpy.ndarray,)

    __hash__ = _backend.Device.__hash__

    def __eq__(self, other):
        return isinstance(other, CpuDevice)

    def __repr__(self):
        return '<CpuDevice (numpy)>'

    @staticmethod
    def from_array(array):
        """Returns a :class:`CpuDevice` for a NumPy array, ``None`` otherwise."""
        if isinstance(array, numpy.ndarray):
            return CpuDevice()
        return None

    def send_array(self, array):
        return _array_to_cpu(array)
