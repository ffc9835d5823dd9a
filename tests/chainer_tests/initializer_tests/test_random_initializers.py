import math

import numpy
import pytest

import chainer
from chainer import initializers as I
from chainer import testing

# (initializer class, kwargs, shape, expected std or None, expected uniform bound or None)
# Fans of a (out, in, kh, kw) kernel: fan_in = in*kh*kw, fan_out = out*kh*kw.
_SHAPE = (100, 120, 3, 3)
_FAN_IN, _FAN_OUT = 120 * 9, 100 * 9
_CASES = [
    (I.Normal, {}, 0.05, None),
    (I.Normal, {'scale': 2.0}, 2.0, None),
    (I.LeCunNormal, {}, math.sqrt(1 / _FAN_IN), None),
    (I.GlorotNormal, {'scale': 3.0}, 3 * math.sqrt(2 / (_FAN_IN + _FAN_OUT)), None),
    (I.HeNormal, {}, math.sqrt(2 / _FAN_IN), None),
    (I.HeNormal, {'fan_option': 'fan_out'}, math.sqrt(2 / _FAN_OUT), None),
    (I.Uniform, {}, None, 0.05),
    (I.LeCunUniform, {}, None, math.sqrt(3 / _FAN_IN)),
    (I.GlorotUniform, {}, None, math.sqrt(6 / (_FAN_IN + _FAN_OUT))),
    (I.HeUniform, {'scale': 0.5}, None, 0.5 * math.sqrt(6 / _FAN_IN)),
]


@pytest.mark.parametrize('cls, kwargs, std, bound', _CASES)
def test_mean_and_variance_within_4_standard_errors(cls, kwargs, std, bound):
    w = numpy.empty(_SHAPE, numpy.float64)
    cls(rng=numpy.random.RandomState(0), **kwargs)(w)
    n = w.size
    var = std ** 2 if std is not None else bound ** 2 / 3
    # Standard errors of the sample mean and variance (4th moment: 3 var^2 normal,
    # 9/5 var^2 uniform).
    kurt = 3.0 if std is not None else 9 / 5
    assert abs(w.mean()) < 4 * math.sqrt(var / n)
    assert abs(w.var() - var) < 4 * math.sqrt((kurt - 1) * var ** 2 / n)
    if bound is not None:
        assert numpy.abs(w).max() <= bound


@pytest.mark.parametrize('cls', [I.Normal, I.Uniform, I.HeNormal, I.Orthogonal])
def test_rng_makes_it_reproducible_and_dtype_is_kept(cls):
    a = numpy.empty((4, 5), numpy.float16)
    b = numpy.empty((4, 5), numpy.float16)
    cls(rng=numpy.random.RandomState(3))(a)
    cls(rng=numpy.random.RandomState(3))(b)
    numpy.testing.assert_array_equal(a, b)
    assert a.dtype == numpy.float16


def test_bad_options():
    with pytest.raises(ValueError, match='fan_option'):
        I.HeNormal(fan_option='fan_avg')(numpy.empty((2, 3)))
    with pytest.raises(TypeError, match='rng'):
        I.Normal(rng=3)
    with pytest.raises(TypeError):
        I.Normal(seed=3)
    with pytest.raises(ValueError, match='float64'):
        I.Normal(dtype=numpy.float64)(numpy.empty((2, 3), numpy.float32))
    with pytest.raises(ValueError, match='length >= 2'):
        I.LeCunNormal()(numpy.empty(3))


@pytest.mark.parametrize('shape', [(3, 5), (5, 3), (4, 2, 3), (4, 4)])
def test_orthogonal_rows_or_columns_are_orthonormal(shape):
    w = numpy.empty(shape, numpy.float64)
    I.Orthogonal(scale=2.0)(w)
    m = w.reshape(shape[0], -1)
    gram = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
    numpy.testing.assert_allclose(gram, 4.0 * numpy.eye(len(gram)), atol=1e-10)


def test_orthogonal_modes_and_errors():
    with pytest.raises(ValueError, match='projection'):
        I.Orthogonal(mode='projection')(numpy.empty((4, 3)))
    with pytest.raises(ValueError, match='embedding'):
        I.Orthogonal(mode='embedding')(numpy.empty((3, 4)))
    with pytest.raises(ValueError, match='basis'):
        I.Orthogonal(mode='basis')(numpy.empty((3, 4)))
    I.Orthogonal(mode='basis')(numpy.empty((3, 3)))
    with pytest.raises(ValueError, match='Invalid mode'):
        I.Orthogonal(mode='square')
    with pytest.raises(ValueError, match='non-empty'):
        I.Orthogonal()(numpy.empty((0,)))
    w = numpy.empty(())
    I.Orthogonal()(w)
    assert abs(float(w)) == pytest.approx(1.1)


def test_sampling_filters():
    up = numpy.empty((2, 2, 4, 4), numpy.float32)
    I.UpsamplingDeconvFilter()(up)
    tri = numpy.array([0.25, 0.75, 0.75, 0.25])
    numpy.testing.assert_allclose(up[1, 1], numpy.outer(tri, tri))
    assert (up[0, 1] == 0).all()
    down = numpy.empty((3, 1, 3, 3, 3), numpy.float64)
    I.DownsamplingConvFilter()(down)
    numpy.testing.assert_allclose(down.sum(axis=(2, 3, 4)), 1.0)
    with pytest.raises(ValueError, match='ksize'):
        I.UpsamplingDeconvFilter()(numpy.empty((2, 2, 3, 4)))
    with pytest.raises(AssertionError):      # Chainer asserts; ours is a ValueError too
        I.UpsamplingDeconvFilter()(numpy.empty((1, 3, 4, 4)))
    with pytest.raises(ValueError, match='interpolation'):
        I.DownsamplingConvFilter(interpolation='cubic')


def test_generate_array_dtypes():
    assert I.generate_array(I.Normal(), (2, 3), numpy).dtype == numpy.float32
    assert I.generate_array(I.Normal(), 3, numpy, dtype=numpy.float16).shape == (3,)
    assert I.generate_array(I.One(numpy.float64), 2, numpy).dtype == numpy.float64
    with chainer.using_config('dtype', numpy.float16):
        assert I.generate_array(I.Zero(), 2, numpy).dtype == numpy.float16
    with chainer.using_config('dtype', chainer.mixed16):
        assert I.generate_array(I.Zero(), 2, numpy).dtype == numpy.float16
    with pytest.raises(ValueError, match='dtype'):
        I.generate_array(I.One(numpy.float64), 2, numpy, dtype=numpy.float32)


def test_get_initializer():
    assert isinstance(I._get_initializer(None), I.LeCunNormal)
    c = I._get_initializer(2.5)
    assert isinstance(c, I.Constant) and c.fill_value == 2.5
    assert isinstance(I._get_initializer(numpy.zeros(3)), I.Constant)
    one = I.One()
    assert I._get_initializer(one) is one
    with pytest.raises(TypeError, match='initializer'):
        I._get_initializer([1, 2])


def test_constant_array_of_wrong_shape():
    with pytest.raises(ValueError, match=r'\(3,\).*\(2, 2\)'):
        I.Constant(numpy.zeros(3))(numpy.empty((2, 2)))


@testing.attr.gpu
def test_random_initializers_on_gpu():
    import cupy
    for cls in (I.Normal, I.Uniform, I.GlorotNormal, I.Orthogonal):
        w = cupy.empty((4, 3), numpy.float32)
        cls()(w)
        assert bool(cupy.isfinite(w).all())
        cls(rng=numpy.random.RandomState(0))(w)
