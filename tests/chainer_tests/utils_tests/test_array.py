import numpy
import pytest

from chainer.utils import array


def test_as_vec():
    x = numpy.arange(6).reshape(2, 3)
    assert array.as_vec(x).shape == (6,)
    v = numpy.arange(4)
    assert array.as_vec(v) is v
    assert array.as_vec(numpy.array(5)).shape == (1,)


def test_as_mat():
    x = numpy.arange(24).reshape(2, 3, 4)
    m = array.as_mat(x)
    assert m.shape == (2, 12)
    numpy.testing.assert_array_equal(m, x.reshape(2, 12))
    y = numpy.zeros((3, 4))
    assert array.as_mat(y) is y
    assert array.as_mat(numpy.arange(3)).shape == (3, 1)


def test_empty_like():
    x = numpy.zeros((2, 3), numpy.float16)
    y = array.empty_like(x)
    assert isinstance(y, numpy.ndarray)
    assert (y.shape, y.dtype) == ((2, 3), numpy.float16)
    assert y is not x


@pytest.mark.parametrize('xshape, shape', [
    ((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 3), (1, 3)), ((2, 3), (2, 1)), ((2, 3), ()),
    ((2, 3), (1, 1)), ((4, 2, 3), (2, 1)), ((4, 1, 3), (1, 1, 3)), ((4, 1, 3), (1, 3)),
    ((0, 3), (3,)), ((5,), (1,)), ((), ()), ((3, 1), (1,)),
])
def test_sum_to(xshape, shape):
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal(xshape).astype(numpy.float32)
    y = array.sum_to(x, shape)
    assert isinstance(y, numpy.ndarray)
    assert y.shape == shape
    assert y.dtype == x.dtype
    # Reference: the sum that is the adjoint of broadcasting `shape` to x.shape.
    expected = numpy.zeros(shape, numpy.float64)
    for index in numpy.ndindex(*xshape):
        lead = len(xshape) - len(shape)
        target = tuple(0 if n == 1 else i for i, n in zip(index[lead:], shape))
        expected[target] += x[index]
    numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


def test_sum_to_same_shape_returns_input():
    x = numpy.zeros((2, 3))
    assert array.sum_to(x, (2, 3)) is x
    assert array.sum_to(x, [2, 3]) is x


def test_sum_to_accepts_list_shape():
    assert array.sum_to(numpy.ones((2, 3)), [3]).tolist() == [2, 2, 2]


@pytest.mark.parametrize('xshape, shape', [((2, 3), (2,)), ((3,), (2, 3)), ((2, 3), (3, 2))])
def test_sum_to_rejects_incompatible_shapes(xshape, shape):
    with pytest.raises(ValueError):
        array.sum_to(numpy.zeros(xshape), shape)


@pytest.mark.parametrize('xshape, shape', [
    ((16, 8, 32, 32), (8, 1, 1)),   # leading axes summed first, then the inner ones
    ((128, 1024), ()),              # full reduction split into rows and the rest
    ((65536, 2), ()),               # short rows: one call
    ((4, 64, 512), (64, 1)),
])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_sum_to_large(xshape, shape, dtype):
    # Values in [0, 1) keep float16 sums of this size below its maximum.
    scale = 1e-3 if dtype == numpy.float16 else 1.0
    x = (numpy.random.default_rng(7).random(xshape) * scale).astype(dtype)
    y = array.sum_to(x, shape)
    assert y.shape == shape
    assert y.dtype == dtype
    lead = len(xshape) - len(shape)
    axes = tuple(range(lead)) + tuple(
        lead + i for i, n in enumerate(shape) if n == 1 and xshape[lead + i] != 1)
    expected = x.astype(numpy.float64).sum(axis=axes, keepdims=True).reshape(shape)
    rtol = {numpy.float16: 2e-3, numpy.float32: 1e-5, numpy.float64: 1e-12}[dtype]
    numpy.testing.assert_allclose(y.astype(numpy.float64), expected, rtol=rtol)


def test_sum_to_integer_and_non_contiguous():
    x = numpy.arange(24).reshape(2, 3, 4).transpose(2, 1, 0)
    numpy.testing.assert_array_equal(array.sum_to(x, (3, 1)), x.sum(axis=(0, 2)).reshape(3, 1))
