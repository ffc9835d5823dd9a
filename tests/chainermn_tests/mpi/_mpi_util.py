"""Helpers shared by the MPI tests."""
import numpy

DTYPES = (numpy.float16, numpy.float32, numpy.float64, numpy.int32, numpy.int64)
SHAPES = ((), (5,), (3, 4), (2, 0, 3), (2, 3, 4))
TOL = {'float16': dict(rtol=2e-3, atol=2e-3), 'float32': dict(rtol=1e-6, atol=1e-6),
       'float64': dict(rtol=1e-13, atol=1e-13), 'int32': dict(rtol=0, atol=0),
       'int64': dict(rtol=0, atol=0)}


def data(rank, shape, dtype, salt=0):
    """The array a rank contributes: deterministic, different for every rank and salt."""
    rs = numpy.random.RandomState(1000 * salt + rank)
    if numpy.dtype(dtype).kind == 'i':
        return rs.randint(-50, 50, size=shape).astype(dtype)
    return rs.uniform(-1, 1, size=shape).astype(dtype)


def assert_same(actual, expected):
    """Same dtype, shape and values (within the dtype's tolerance)."""
    assert isinstance(actual, numpy.ndarray), type(actual)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    numpy.testing.assert_allclose(actual, expected, **TOL[expected.dtype.name])
