"""Base class of initializers."""
import numpy


class _InitializerError(ValueError, AssertionError, TypeError):
    # Chainer checks some initializer preconditions with ``assert`` and fails others with a
    # TypeError (a filter initializer given a 2-d shape); raising this keeps ``except
    # AssertionError`` and ``except TypeError`` code working while being the ValueError it
    # really is.
    pass


class Initializer:
    """Fills an array with initial values.

    Subclasses implement ``__call__(array)``, filling ``array`` in place.

    Args:
        dtype: Data type of the arrays it makes (``None``: the configured default).
    """

    def __init__(self, dtype=None):
        self.dtype = dtype

    def __call__(self, array):
        raise NotImplementedError()

    def _check_dtype(self, array):
        # An initializer with a dtype fills only arrays of that dtype.
        if self.dtype is not None and array.dtype != numpy.dtype(self.dtype):
            raise _InitializerError(
                f'{type(self).__name__} was made for {numpy.dtype(self.dtype)} arrays, '
                f'got an array of {array.dtype}')


def get_fans(shape):
    """Returns ``(fan_in, fan_out)`` of a weight of the given shape.

    The first axis is the output, the second the input, and any further axes
    (a convolution kernel's window) multiply both.
    """
    if not isinstance(shape, tuple):
        raise ValueError(f'shape must be a tuple, got {type(shape).__name__}')
    if len(shape) < 2:
        raise ValueError(f'shape must be of length >= 2. Actual shape: {shape}')
    receptive = int(numpy.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive
