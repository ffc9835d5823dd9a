import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.functions.connection import convolution_2d
from chainer.functions.connection import deconvolution_2d
from chainer.utils import type_check
from chainer_tests.functions_tests.connection_tests import _conv_testing

# (x shape, W shape, options); W is (in channels, out channels / groups, kh, kw).
_CASES = [
    ((2, 3, 3, 4), (3, 2, 3, 3), {}),
    ((2, 2, 3, 3), (2, 3, 3, 2), {'stride': (2, 3), 'pad': (1, 0)}),
    ((1, 2, 3, 3), (2, 2, 3, 3), {'stride': 2, 'pad': 1, 'outsize': (4, 6)}),
    # A convolution from this output needs cover_all on the first axis only.
    ((1, 1, 5, 5), (1, 2, 3, 3), {'stride': 2, 'outsize': (10, 12)}),
    ((2, 4, 3, 2), (4, 1, 2, 2), {'dilate': 2, 'groups': 2}),
    ((2, 6, 2, 3), (6, 2, 3, 1), {'stride': 2, 'pad': 1, 'dilate': (1, 2), 'groups': 3}),
    ((1, 2, 1, 3), (2, 3, 1, 2), {}),
]


@_conv_testing.parameterize([{'x_shape': x, 'W_shape': w, 'options': o} for x, w, o in _CASES])
class TestDeconvolution2D(_conv_testing.ConvTestCase):
    transposed = True
    function = F.deconvolution_2d
    reference_function = _conv_testing.deconvolution


def test_known_values():
    x = numpy.array([[[[1, 2], [3, 4]]]], numpy.float32)
    W = numpy.ones((1, 1, 2, 2), numpy.float32)
    y = F.deconvolution_2d(x, W, stride=2)
    numpy.testing.assert_array_equal(
        y.array[0, 0], [[1, 1, 2, 2], [1, 1, 2, 2], [3, 3, 4, 4], [3, 3, 4, 4]])


def test_is_the_adjoint_of_convolution():
    # <conv(x, W), y> == <x, deconv(y, W)> with the same spec.
    x = numpy.random.rand(2, 4, 7, 6)
    W = numpy.random.rand(6, 2, 3, 2)
    options = {'stride': (2, 1), 'pad': (1, 2), 'dilate': (1, 2), 'groups': 2}
    y = F.convolution_2d(x, W, cover_all=True, **options).array
    gy = numpy.random.rand(*y.shape)
    gx = F.deconvolution_2d(gy, W, outsize=x.shape[2:], **options).array
    numpy.testing.assert_allclose((y * gy).sum(), (x * gx).sum())


def test_attributes_and_gradient_nodes():
    x = chainer.Variable(numpy.random.rand(2, 3, 3, 3))
    W = chainer.Variable(numpy.random.rand(3, 2, 3, 3))
    y = F.deconvolution_2d(x, W, stride=2, pad=1, dilate=(1, 2))
    f = y.creator
    assert type(f) is deconvolution_2d.Deconvolution2DFunction
    assert (f.sy, f.sx, f.ph, f.pw, f.dy, f.dx, f.groups) == (2, 2, 1, 1, 1, 2, 1)
    assert (f.outh, f.outw) == (5, 7) == y.shape[2:]
    gx, gW = chainer.grad([y], [x, W], enable_double_backprop=True)
    assert type(gx.creator) is convolution_2d.Convolution2DFunction
    assert type(gW.creator) is convolution_2d.Convolution2DGradW
    assert deconvolution_2d.Deconvolution2DFunction().outh is None


_x = numpy.zeros((2, 3, 5, 5), numpy.float32)
_W = numpy.zeros((3, 4, 3, 3), numpy.float32)


@pytest.mark.parametrize('args, kwargs', [
    ((_x, numpy.zeros((4, 4, 3, 3), numpy.float32)), {}),           # channel mismatch
    ((_x, _W[0]), {}),                                              # W.ndim
    ((_x, _W.astype(numpy.int32)), {}),                             # W.dtype
    ((_x, _W, numpy.zeros(3, numpy.float32)), {}),                  # b size
    ((_x, _W, numpy.zeros(4, numpy.float64)), {}),                  # b dtype
    ((_x, _W), {'outsize': (8, 7)}),                                # outsize too large
    ((_x, _W), {'stride': 2, 'outsize': (9, 11)}),                  # outsize too small
])
def test_invalid_type(args, kwargs):
    with pytest.raises(type_check.InvalidType, match='Deconvolution2DFunction'):
        F.deconvolution_2d(*args, **kwargs)


def test_invalid_values():
    with pytest.raises(RuntimeError, match=r'deconvolution_2d.*output sizes.*\(-13, -13\)'):
        F.deconvolution_2d(_x, _W, pad=10)
    with pytest.raises(ValueError, match='groups=2 and 3 input'):
        F.deconvolution_2d(_x, _W, groups=2)
    with pytest.raises(ValueError, match='outsize'):
        F.deconvolution_2d(_x, _W, outsize=(7,))
    with pytest.raises(ValueError, match='deterministic'):
        F.deconvolution_2d(_x, _W, deterministic=True)
    with pytest.raises(TypeError, match=r"deconvolution_2d\(\) got unexpected.*'train'"):
        F.deconvolution_2d(_x, _W, train=True)
