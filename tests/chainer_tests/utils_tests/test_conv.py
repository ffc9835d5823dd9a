import itertools

import numpy
import pytest

from chainer.utils import conv


@pytest.mark.parametrize('size, k, s, p, d', [
    (5, 3, 1, 0, 1), (5, 3, 2, 1, 1), (7, 3, 2, 0, 1), (8, 3, 3, 1, 2), (10, 2, 4, 0, 1),
    (6, 3, 1, 2, 3), (1, 1, 1, 0, 1),
])
def test_get_conv_outsize(size, k, s, p, d):
    span = (k - 1) * d + 1
    assert conv.get_conv_outsize(size, k, s, p, False, d) == (size + 2 * p - span) // s + 1
    plain = conv.get_conv_outsize(size, k, s, p, d=d)
    covered = conv.get_conv_outsize(size, k, s, p, cover_all=True, d=d)
    assert covered >= plain
    # With cover_all the windows reach the end of the padded input.
    assert (covered - 1) * s + span >= size + 2 * p
    assert (plain - 1) * s + span <= size + 2 * p


def test_get_conv_outsize_known_values():
    assert conv.get_conv_outsize(7, 3, 2, 0) == 3
    assert conv.get_conv_outsize(8, 3, 2, 0) == 3
    assert conv.get_conv_outsize(8, 3, 2, 0, cover_all=True) == 4
    assert conv.get_conv_outsize(10, 3, 1, 1, d=2) == 8


@pytest.mark.parametrize('size, k, s, p, d', [
    (3, 3, 1, 0, 1), (4, 3, 2, 1, 1), (5, 4, 3, 0, 1), (3, 3, 1, 1, 2), (6, 2, 2, 0, 1)])
@pytest.mark.parametrize('cover_all', [False, True])
def test_deconv_outsize_inverts_conv_outsize(size, k, s, p, d, cover_all):
    out = conv.get_deconv_outsize(size, k, s, p, cover_all, d)
    assert conv.get_conv_outsize(out, k, s, p, cover_all, d) == size


def test_get_deconv_outsize_known_values():
    assert conv.get_deconv_outsize(3, 3, 2, 0) == 7
    assert conv.get_deconv_outsize(3, 3, 2, 0, cover_all=True) == 6
    assert conv.get_deconv_outsize(4, 3, 1, 1, d=2) == 6


def _naive_im2col(img, kh, kw, sy, sx, ph, pw, pval, dy, dx, out_h, out_w):
    n, c, h, w = img.shape
    col = numpy.empty((n, c, kh, kw, out_h, out_w), img.dtype)
    for j, i, y, x in itertools.product(range(kh), range(kw), range(out_h), range(out_w)):
        r = y * sy + j * dy - ph
        q = x * sx + i * dx - pw
        if 0 <= r < h and 0 <= q < w:
            col[:, :, j, i, y, x] = img[:, :, r, q]
        else:
            col[:, :, j, i, y, x] = pval
    return col


def _naive_col2im(col, sy, sx, ph, pw, h, w, dy, dx):
    n, c, kh, kw, out_h, out_w = col.shape
    img = numpy.zeros((n, c, h, w), col.dtype)
    for j, i, y, x in itertools.product(range(kh), range(kw), range(out_h), range(out_w)):
        r = y * sy + j * dy - ph
        q = x * sx + i * dx - pw
        if 0 <= r < h and 0 <= q < w:
            img[:, :, r, q] += col[:, :, j, i, y, x]
    return img


_CONV_PARAMS = [
    # h, w, kh, kw, sy, sx, ph, pw, dy, dx, cover_all
    (5, 6, 3, 3, 1, 1, 0, 0, 1, 1, False),
    (5, 6, 3, 2, 2, 1, 1, 0, 1, 1, False),
    (7, 7, 3, 3, 2, 2, 1, 1, 1, 1, True),
    (8, 5, 2, 3, 3, 2, 0, 1, 1, 1, True),
    (9, 8, 3, 2, 1, 2, 2, 1, 2, 3, False),
    (9, 8, 3, 3, 2, 2, 1, 1, 2, 2, True),
    (4, 4, 1, 1, 1, 1, 0, 0, 1, 1, False),
    (4, 4, 4, 4, 1, 1, 0, 0, 1, 1, False),
    (3, 3, 3, 3, 1, 1, 2, 2, 1, 1, False),
]


@pytest.mark.parametrize('h, w, kh, kw, sy, sx, ph, pw, dy, dx, cover_all', _CONV_PARAMS)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_im2col_cpu(h, w, kh, kw, sy, sx, ph, pw, dy, dx, cover_all, dtype):
    rng = numpy.random.default_rng(1)
    img = rng.standard_normal((2, 3, h, w)).astype(dtype)
    out_h = conv.get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    out_w = conv.get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    col = conv.im2col_cpu(img, kh, kw, sy, sx, ph, pw, cover_all=cover_all, dy=dy, dx=dx)
    assert col.shape == (2, 3, kh, kw, out_h, out_w)
    assert col.dtype == dtype
    assert col.flags.c_contiguous
    expected = _naive_im2col(img, kh, kw, sy, sx, ph, pw, 0, dy, dx, out_h, out_w)
    numpy.testing.assert_array_equal(col, expected)


def test_im2col_cpu_pval_and_explicit_out_size():
    img = numpy.arange(2 * 1 * 4 * 5, dtype=numpy.float32).reshape(2, 1, 4, 5)
    col = conv.im2col_cpu(img, 2, 3, 2, 2, 1, 1, pval=-numpy.inf, out_h=4, out_w=3)
    expected = _naive_im2col(img, 2, 3, 2, 2, 1, 1, -numpy.inf, 1, 1, 4, 3)
    numpy.testing.assert_array_equal(col, expected)


def test_im2col_cpu_does_not_alias_input():
    img = numpy.zeros((1, 1, 3, 3), numpy.float32)
    col = conv.im2col_cpu(img, 1, 1, 1, 1, 0, 0)
    col[...] = 1
    assert not img.any()


def test_im2col_cpu_non_contiguous_input():
    base = numpy.random.default_rng(2).standard_normal((2, 6, 5, 3)).astype(numpy.float32)
    img = base.transpose(0, 3, 2, 1)
    col = conv.im2col_cpu(img, 3, 2, 1, 2, 0, 0)
    expected = _naive_im2col(numpy.ascontiguousarray(img), 3, 2, 1, 2, 0, 0, 0, 1, 1, 3, 3)
    numpy.testing.assert_array_equal(col, expected)


def test_im2col_cpu_rejects_empty_output():
    with pytest.raises(ValueError):
        conv.im2col_cpu(numpy.zeros((1, 1, 2, 2)), 3, 3, 1, 1, 0, 0)


@pytest.mark.parametrize('h, w, kh, kw, sy, sx, ph, pw, dy, dx, cover_all', _CONV_PARAMS)
def test_col2im_cpu(h, w, kh, kw, sy, sx, ph, pw, dy, dx, cover_all):
    rng = numpy.random.default_rng(3)
    out_h = conv.get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    out_w = conv.get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    col = rng.standard_normal((2, 3, kh, kw, out_h, out_w))
    img = conv.col2im_cpu(col, sy, sx, ph, pw, h, w, dy, dx)
    assert img.shape == (2, 3, h, w)
    numpy.testing.assert_allclose(img, _naive_col2im(col, sy, sx, ph, pw, h, w, dy, dx),
                                  rtol=1e-12, atol=1e-12)


def test_col2im_is_the_adjoint_of_im2col():
    rng = numpy.random.default_rng(4)
    h, w, kh, kw, sy, sx, ph, pw, dy, dx = 7, 6, 3, 2, 2, 1, 1, 2, 2, 1
    img = rng.standard_normal((1, 2, h, w))
    col = conv.im2col_cpu(img, kh, kw, sy, sx, ph, pw, cover_all=True, dy=dy, dx=dx)
    g = rng.standard_normal(col.shape)
    back = conv.col2im_cpu(g, sy, sx, ph, pw, h, w, dy, dx)
    numpy.testing.assert_allclose((col * g).sum(), (img * back).sum(), rtol=1e-10)


def test_gpu_versions_accept_numpy_arrays_too():
    # They share the xp code path; with NumPy input they run on the CPU.
    img = numpy.random.default_rng(5).standard_normal((1, 2, 5, 5))
    col = conv.im2col_gpu(img, 3, 3, 2, 2, 1, 1, cover_all=True)
    numpy.testing.assert_array_equal(col, conv.im2col_cpu(img, 3, 3, 2, 2, 1, 1, cover_all=True))
    numpy.testing.assert_array_equal(conv.col2im_gpu(col, 2, 2, 1, 1, 5, 5),
                                     conv.col2im_cpu(col, 2, 2, 1, 1, 5, 5))


@pytest.mark.gpu
def test_gpu_matches_cpu():
    cupy = pytest.importorskip('cupy')
    img = numpy.random.default_rng(6).standard_normal((2, 3, 9, 8)).astype(numpy.float32)
    args = (3, 2, 2, 1, 1, 1)
    col = conv.im2col_gpu(cupy.asarray(img), *args, cover_all=True, dy=2, dx=1)
    assert isinstance(col, cupy.ndarray)
    expected = conv.im2col_cpu(img, *args, cover_all=True, dy=2, dx=1)
    numpy.testing.assert_array_equal(cupy.asnumpy(col), expected)
    back = conv.col2im_gpu(col, 2, 1, 1, 1, 9, 8, 2, 1)
    numpy.testing.assert_allclose(cupy.asnumpy(back),
                                  conv.col2im_cpu(expected, 2, 1, 1, 1, 9, 8, 2, 1), rtol=1e-5)


def test_im2col_and_col2im_follow_the_array():
    img = numpy.random.default_rng(7).standard_normal((2, 3, 6, 5))
    col = conv.im2col(img, 3, 2, 2, 1, 1, 0, cover_all=True, dy=1, dx=2)
    numpy.testing.assert_array_equal(
        col, conv.im2col_cpu(img, 3, 2, 2, 1, 1, 0, cover_all=True, dy=1, dx=2))
    numpy.testing.assert_array_equal(conv.col2im(col, 2, 1, 1, 0, 6, 5, 1, 2),
                                     conv.col2im_cpu(col, 2, 1, 1, 0, 6, 5, 1, 2))
