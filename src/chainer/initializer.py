"""Base class of initializers."""
import numpy


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


def get_fans(shape):
    """Returns ``(fan_in, fan_out)`` of a weight of the given shape."""
    if not isinstance(shape, tuple):
        raise ValueError(f'shape must be a tuple, got {type(shape).__name__}')
    if len(shape) < 2:
        raise ValueError(f'shape must have at least two dimensions, got {shape}')
    receptive = int(numpy.prod(shape[2:])) if len(shape) > 2 else 1
    return shape[1] * receptive, shape[0] * receptive
