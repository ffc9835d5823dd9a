import re

import numpy
import pytest

from chainer import testing
from chainer.testing import array as array_module


class _FakeVariable:
    # Stands in for chainer.Variable: only the ``.array`` attribute matters.
    def __init__(self, array):
        self.array = array


def test_passes_within_tolerance():
    x = numpy.array([1.0, 2.0, 3.0], numpy.float32)
    testing.assert_allclose(x, x + 1e-5)
    testing.assert_allclose(x, x + 0.01, atol=0.02)
    testing.assert_allclose(x, x * 1.001, atol=0, rtol=0.01)
    testing.assert_allclose(numpy.array([numpy.nan, 1.0]), numpy.array([numpy.nan, 1.0]))


def test_scalars_and_broadcasting():
    testing.assert_allclose(1.0, 1.0 + 1e-7)
    testing.assert_allclose(numpy.full((2, 3), 2.0), 2.0)
    with pytest.raises(AssertionError):
        testing.assert_allclose(1.0, 1.1)


def test_variable_like_objects():
    x = numpy.arange(4.0)
    testing.assert_allclose(_FakeVariable(x), x)
    testing.assert_allclose(x, _FakeVariable(x.copy()))
    with pytest.raises(AssertionError):
        testing.assert_allclose(_FakeVariable(x), x + 1)


def test_failure_report():
    x = numpy.zeros((2, 3), numpy.float32)
    y = numpy.zeros((2, 3), numpy.float64)
    x[0, 2] = 0.5
    x[1, 1] = 2.0
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose(x, y, atol=0.1, rtol=0.01)
    message = str(info.value)
    assert 'shape: (2, 3) (2, 3)' in message
    assert 'dtype: float32 float64' in message
    assert 'mismatched elements: 2 / 6' in message
    assert 'max absolute error: 2.0' in message
    assert 'max relative error: inf' in message
    assert 'worst element index i: (1, 1)' in message
    assert re.search(r'x\[i\]: 2\.0\b', message)
    assert re.search(r'y\[i\]: 0\.0\b', message)
    assert 'atol=0.1, rtol=0.01' in message
    assert 'array(' in message  # NumPy's own report, with the values


def test_worst_element_is_the_one_furthest_beyond_its_tolerance():
    x = numpy.array([100.0, 0.0])
    y = numpy.array([101.0, 0.5])
    # |err| is 1.0 at 0 but its tolerance is ~1.01; at 1 err 0.5 exceeds tolerance 0.01.
    with pytest.raises(AssertionError, match=r'worst element index i: \(1,\)'):
        testing.assert_allclose(x, y, atol=0.0, rtol=0.01 + 1e-9)


def test_nan_mismatch():
    with pytest.raises(AssertionError, match=r'worst element index i: \(1,\)'):
        testing.assert_allclose(numpy.array([1.0, numpy.nan]), numpy.array([1.0, 2.0]))


def test_shape_mismatch_is_assertion_error():
    with pytest.raises(AssertionError, match=r'shape: \(3,\) \(4,\)'):
        testing.assert_allclose(numpy.zeros(3), numpy.zeros(4))
    with pytest.raises(AssertionError):
        testing.assert_allclose(numpy.zeros((2, 3)), numpy.zeros((3, 2)))


def test_verbose_false_omits_values():
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose(numpy.zeros(3), numpy.ones(3), verbose=False)
    assert 'array(' not in str(info.value)  # the full arrays
    assert 'max absolute error: 1.0' in str(info.value)


def test_large_arrays_are_summarized():
    with pytest.raises(AssertionError) as info:
        testing.assert_allclose(numpy.zeros(100000), numpy.ones(100000))
    assert len(str(info.value)) < 5000


@pytest.mark.parametrize('shape', [(2, 3), (3, 1), (1, 4), (5,), (2, 3, 4)])
def test_as_noncontiguous_array(shape):
    x = numpy.arange(numpy.prod(shape), dtype=numpy.float32).reshape(shape)
    y = array_module._as_noncontiguous_array(x)
    assert not y.flags.c_contiguous
    assert y.dtype == x.dtype
    numpy.testing.assert_array_equal(y, x)


def test_as_noncontiguous_array_containers():
    x = numpy.ones((2, 2))
    scalar = numpy.ones(())
    a, none, b = array_module._as_noncontiguous_array((x, None, scalar))
    assert none is None
    assert not a.flags.c_contiguous
    assert b.shape == () and b is not scalar
