import numpy
import pytest

from chainer import testing
from chainer.testing import matrix


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64,
                                   numpy.complex64, numpy.complex128])
@pytest.mark.parametrize('shape,sv_shape', [
    ((3, 3), (3,)), ((2, 4), (2,)), ((4, 2), ()), ((2, 3, 5), (2, 3)), ((2, 3, 5), (1, 3)),
])
def test_singular_values_are_the_given_ones(dtype, shape, sv_shape):
    sv = numpy.random.uniform(0.5, 2, sv_shape)
    x = testing.generate_matrix(shape, dtype=dtype, singular_values=sv)
    assert x.shape == shape and x.dtype == dtype
    got = numpy.linalg.svd(x.astype(numpy.complex128), compute_uv=False)
    want = numpy.sort(numpy.broadcast_to(sv, got.shape), axis=-1)[..., ::-1]
    rtol = 2e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(got, want, rtol=rtol)
    if numpy.dtype(dtype).kind == 'c':
        assert numpy.abs(x.imag).max() > 0      # genuinely complex, not real cast


def test_empty_shapes():
    assert testing.generate_matrix((0, 2, 2), singular_values=1).shape == (0, 2, 2)
    assert testing.generate_matrix((0, 0), singular_values=numpy.ones(0)).shape == (0, 0)


@pytest.mark.parametrize('kwargs,error', [
    ({}, TypeError),
    ({'singular_values': 1, 'seed': 0}, TypeError),
    ({'singular_values': 1 + 0j}, TypeError),
    ({'singular_values': 1, 'dtype': numpy.int32}, TypeError),
    ({'singular_values': [1, -1]}, ValueError),
    ({'singular_values': numpy.ones(3)}, ValueError),
])
def test_bad_arguments(kwargs, error):
    with pytest.raises(error, match='generate_matrix'):
        testing.generate_matrix((2, 2), **kwargs)


def test_bad_shape():
    with pytest.raises(ValueError, match='2 dimensions'):
        testing.generate_matrix((2,), singular_values=1)


def test_broadcast_helper():
    numpy.testing.assert_array_equal(matrix._broadcast_to(numpy.arange(2), (3, 2)),
                                     [[0, 1]] * 3)
