"""Deterministic inputs for export tests."""
import numpy


def _size(shape):
    return int(numpy.prod(shape, dtype=numpy.int64))


def increasing(*shape, dtype=numpy.float32):
    """Evenly spaced values centred on zero: step 0.5 for float32 and float64, 1 otherwise.

    >>> increasing(2, 3)
    array([[-1.5, -1. , -0.5],
           [ 0. ,  0.5,  1. ]], dtype=float32)
    """
    size = _size(shape)
    values = numpy.arange(size) - size // 2
    if numpy.dtype(dtype) in (numpy.float32, numpy.float64):
        values = values * 0.5
    return values.astype(dtype).reshape(shape)


def nonzero_increasing(*shape, dtype=numpy.float32, bias=1e-7):
    """:func:`increasing` shifted by ``bias``, so that no value is zero (float32, float64)."""
    _check_float(dtype, 'nonzero_increasing')
    return (increasing(*shape, dtype=dtype) + bias).astype(dtype)


def positive_increasing(*shape, dtype=numpy.float32, bias=1e-7):
    """Values ``0.5 * i + bias``: positive and increasing (float32, float64)."""
    _check_float(dtype, 'positive_increasing')
    size = _size(shape)
    return (numpy.arange(size) * 0.5 + bias).astype(dtype).reshape(shape)


def shaped_range(*shape, dtype=numpy.float32):
    """``0, 1, 2, ...`` in ``shape``."""
    return numpy.arange(_size(shape)).reshape(shape).astype(dtype)


def _check_float(dtype, name):
    if numpy.dtype(dtype) not in (numpy.float32, numpy.float64):
        raise AssertionError('{} makes float32 or float64 values, got dtype {}'.format(
            name, numpy.dtype(dtype)))
