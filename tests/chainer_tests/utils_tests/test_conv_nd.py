import itertools

import numpy
import pytest

from chainer.utils import conv
from chainer.utils import conv_nd


def _naive_im2col(x, ksize, stride, pad, pval, cover_all, dilate):
    # Element by element from the definition: col[..., k, o] = x_padded[o*s + k*d].
    ndim = len(ksize)
    dims = x.shape[2:]
    outs = [conv.get_conv_outsize(d, k, s, p, cover_all, di)
            for d, k, s, p, di in zip(dims, ksize, stride, pad, dilate)]
    col = numpy.empty(x.shape[:2] + tuple(ksize) + tuple(outs), x.dtype)
    for tap in itertools.product(*map(range, ksize)):
        for out in itertools.product(*map(range, outs)):
            pos = [o * s + t * di - p
                   for o, s, t, di, p in zip(out, stride, tap, dilate, pad)]
            inside = all(0 <= q < d for q, d in zip(pos, dims))
            value = x[(slice(None), slice(None)) + tuple(pos)] if inside else pval
            col[(slice(None), slice(None)) + tap + out] = value
    assert col.ndim == 2 + 2 * ndim
    return col


_CASES = [
    # ksize, stride, pad, cover_all, dilate, input spatial shape
    ((2,), (1,), (0,), False, (1,), (5,)),
    ((3,), (2,), (1,), True, (2,), (9,)),
    ((2, 3, 2), (1, 2, 3), (0, 1, 2), False, (1, 1, 1), (5, 6, 7)),
    ((2, 2, 2), (2, 2, 2), (1, 1, 1), True, (1, 2, 1), (5, 6, 7)),
    ((2, 2, 1, 2), (1, 2, 1, 1), (1, 0, 1, 0), False, (1, 1, 1, 1), (4, 5, 3, 3)),
    ((1, 1), (1, 1), (0, 0), False, (1, 1), (3, 4)),
]


@pytest.mark.parametrize('ksize, stride, pad, cover_all, dilate, dims', _CASES)
def test_im2col_nd_matches_definition(ksize, stride, pad, cover_all, dilate, dims):
    x = numpy.random.RandomState(0).rand(2, 3, *dims).astype(numpy.float32)
    col = conv_nd.im2col_nd_cpu(x, ksize, stride, pad, pval=-1.0, cover_all=cover_all,
                                dilate=dilate)
    expected = _naive_im2col(x, ksize, stride, pad, -1.0, cover_all, dilate)
    numpy.testing.assert_array_equal(col, expected)
    assert col.flags.c_contiguous
    assert not numpy.shares_memory(col, x)
    zero_padded = conv_nd.im2col_nd(x, ksize, stride, pad, cover_all=cover_all, dilate=dilate)
    numpy.testing.assert_array_equal(
        zero_padded, _naive_im2col(x, ksize, stride, pad, 0, cover_all, dilate))


@pytest.mark.parametrize('ksize, stride, pad, cover_all, dilate, dims', _CASES)
def test_col2im_nd_is_the_adjoint(ksize, stride, pad, cover_all, dilate, dims):
    rng = numpy.random.RandomState(1)
    x = rng.rand(2, 3, *dims)
    col_shape = conv_nd.im2col_nd_cpu(x, ksize, stride, pad, cover_all=cover_all,
                                      dilate=dilate).shape
    c = rng.rand(*col_shape)
    y = conv_nd.col2im_nd_cpu(c, stride, pad, dims, dilate=dilate)
    assert y.shape == x.shape
    lhs = (conv_nd.im2col_nd_cpu(x, ksize, stride, pad, cover_all=cover_all,
                                 dilate=dilate) * c).sum()
    numpy.testing.assert_allclose(lhs, (x * y).sum())
    numpy.testing.assert_array_equal(conv_nd.col2im_nd(c, stride, pad, dims, dilate), y)


def test_scalars_mean_every_axis():
    x = numpy.random.rand(1, 2, 5, 6, 7)
    numpy.testing.assert_array_equal(
        conv_nd.im2col_nd_cpu(x, 2, 1, 1, dilate=2),
        conv_nd.im2col_nd_cpu(x, (2, 2, 2), (1, 1, 1), (1, 1, 1), dilate=(2, 2, 2)))


def test_two_dimensional_functions_agree():
    x = numpy.random.rand(2, 3, 7, 8).astype(numpy.float32)
    numpy.testing.assert_array_equal(
        conv.im2col_cpu(x, 3, 2, 2, 1, 1, 0, cover_all=True, dy=2),
        conv_nd.im2col_nd_cpu(x, (3, 2), (2, 1), (1, 0), cover_all=True, dilate=(2, 1)))
    c = numpy.random.rand(2, 3, 3, 3, 4, 4).astype(numpy.float32)
    numpy.testing.assert_array_equal(
        conv.col2im_cpu(c, 2, 2, 1, 1, 7, 8), conv_nd.col2im_nd_cpu(c, 2, 1, (7, 8)))


def test_as_tuple():
    assert conv_nd.as_tuple(3, 2) == (3, 3)
    assert conv_nd.as_tuple(numpy.int64(3), 1) == (3,)
    assert conv_nd.as_tuple([1, 2], 2) == (1, 2)
    with pytest.raises(AssertionError):
        conv_nd.as_tuple((1, 2, 3), 2)
    assert conv_nd.get_conv_outsize is conv.get_conv_outsize


def test_output_must_be_positive():
    with pytest.raises(ValueError, match='positive'):
        conv_nd.im2col_nd_cpu(numpy.zeros((1, 1, 5, 3, 3)), (6, 3, 2), 1, 0)


@pytest.mark.parametrize('ksize, stride, pad, cover_all, dilate, dims', _CASES)
def test_channel_major_layout_and_dtype(ksize, stride, pad, cover_all, dilate, dims):
    # The convolutions' layout (c, k..., n, out...), cast while copying; col2im takes the
    # transposed view back and gives the same image.
    x = numpy.random.default_rng(8).standard_normal((2, 3) + dims).astype(numpy.float16)
    col = conv_nd._im2col_nd(x, ksize, stride, pad, 0, cover_all, dilate,
                             dtype=numpy.float32, channel_major=True)
    assert col.dtype == numpy.float32 and col.flags.c_contiguous
    nd = len(dims)
    back = tuple(range(1 + nd, 2 + nd)) + (0,) + tuple(range(1, 1 + nd)) + tuple(
        range(2 + nd, 2 + 2 * nd))
    expected = conv_nd.im2col_nd_cpu(x, ksize, stride, pad, cover_all=cover_all, dilate=dilate)
    numpy.testing.assert_array_equal(col.transpose(back), expected)
    numpy.testing.assert_allclose(
        conv_nd.col2im_nd_cpu(col.transpose(back), stride, pad, dims, dilate),
        conv_nd.col2im_nd_cpu(expected.astype(numpy.float32), stride, pad, dims, dilate),
        rtol=1e-6)
