"""Initializers that fill a fixed value."""
import numpy

from chainer import backend
from chainer import initializer


class Constant(initializer.Initializer):
    """Fills the array with a constant (a scalar, or an array that broadcasts).

    Args:
        fill_value (scalar or N-dimensional array): The value.
        dtype: Data type of the arrays it makes.
    """

    def __init__(self, fill_value, dtype=None):
        self.fill_value = fill_value
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        xp = backend.get_array_module(array)
        value = self.fill_value
        if not numpy.isscalar(value):
            value = backend.get_device_from_array(array).send(
                value if not hasattr(value, 'array') else value.array)
            try:
                fits = numpy.broadcast_shapes(value.shape, array.shape) == array.shape
            except ValueError:
                fits = False
            if not fits:
                raise ValueError(f'Constant: a fill value of shape {value.shape} cannot fill '
                                 f'an array of shape {array.shape}')
        array[...] = xp.asarray(value)


class Zero(Constant):
    """Fills the array with zeros."""

    def __init__(self, dtype=None):
        super().__init__(0.0, dtype=dtype)


class One(Constant):
    """Fills the array with ones."""

    def __init__(self, dtype=None):
        super().__init__(1.0, dtype=dtype)


class NaN(Constant):
    """Fills the array with NaN (marks parameters that must be set before use)."""

    def __init__(self, dtype=None):
        super().__init__(numpy.nan, dtype=dtype)


class Identity(initializer.Initializer):
    """Fills a square matrix with ``scale`` times the identity.

    Args:
        scale (float): Value on the diagonal.
        dtype: Data type of the arrays it makes.
    """

    def __init__(self, scale=1.0, dtype=None):
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        if array.ndim != 2 or array.shape[0] != array.shape[1]:
            raise ValueError(f'Identity initializer needs a square matrix, got shape '
                             f'{array.shape}')
        xp = backend.get_array_module(array)
        array[...] = xp.identity(array.shape[0], dtype=array.dtype) * self.scale
