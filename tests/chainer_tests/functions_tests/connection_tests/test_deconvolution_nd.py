import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.connection import convolution_nd
from chainer.functions.connection import deconvolution_nd
from chainer.utils import type_check
from chainer_tests.functions_tests.connection_tests import _conv_testing

# (x shape, W shape, options) over 1, 2 and 3 spatial axes.
_CASES = [
    ((2, 3, 4), (3, 2, 3), {}),
    ((1, 2, 3), (2, 3, 2), {'stride': 3, 'pad': 1, 'dilate': 2}),
    ((2, 4, 3), (4, 1, 3), {'stride': 2, 'outsize': (8,), 'groups': 2}),
    ((2, 2, 2, 3), (2, 2, 2, 3), {'stride': (1, 2), 'pad': (0, 1)}),
    ((1, 2, 2, 2, 1), (2, 2, 2, 2, 1), {'stride': 2, 'outsize': (5, 4, 1)}),
]


@_conv_testing.parameterize([{'x_shape': x, 'W_shape': w, 'options': o} for x, w, o in _CASES])
class TestDeconvolutionND(_conv_testing.ConvTestCase):
    transposed = True
    function = F.deconvolution_nd
    reference_function = _conv_testing.deconvolution


@testing.parameterize(*testing.product({
    'ndim': [1, 3],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDeconvolution1D3D(_conv_testing.ConvTestCase):
    transposed = True
    options = {'stride': 2, 'pad': 1}
    reference_function = _conv_testing.deconvolution

    def setUp(self):
        super().setUp()
        self.x_shape = (2, 2) + (3, 2, 2)[:self.ndim]
        self.W_shape = (2, 3) + (2,) * self.ndim

    def call(self, x, W, b):
        func = F.deconvolution_1d if self.ndim == 1 else F.deconvolution_3d
        return func(x, W, b, **self.options)


def test_gradient_nodes_and_cover_all():
    x = chainer.Variable(numpy.random.rand(2, 3, 5, 5))
    W = chainer.Variable(numpy.random.rand(3, 2, 3, 3))
    y = F.deconvolution_nd(x, W, stride=2, outsize=(10, 11))
    f = y.creator
    assert type(f) is deconvolution_nd.DeconvolutionND
    assert f.outs == (10, 11) and f.cover_all is True
    gx, gW = chainer.grad([y], [x, W], enable_double_backprop=True)
    assert type(gx.creator) is convolution_nd.ConvolutionND
    assert type(gW.creator) is convolution_nd.ConvolutionNDGradW
    assert gx.shape == x.shape
    assert F.deconvolution_nd(x, W, stride=2, outsize=(11, 11)).creator.cover_all is False


_x = numpy.zeros((2, 3, 4), numpy.float32)
_W = numpy.zeros((3, 2, 2), numpy.float32)


@pytest.mark.parametrize('args, kwargs', [
    ((_x.astype(numpy.int32), _W), {}),
    ((_x, _W.astype(numpy.int32)), {}),
    ((numpy.zeros((2, 3, 4, 4), numpy.float32), _W), {}),
    ((_x, numpy.zeros((2, 2, 2), numpy.float32)), {}),
    ((_x, _W), {'outsize': (10,)}),
    ((_x, _W, numpy.zeros(2, numpy.int32)), {}),
    ((_x, _W, numpy.zeros((2, 2), numpy.float32)), {}),
])
def test_invalid_type(args, kwargs):
    with pytest.raises(type_check.InvalidType, match='DeconvolutionND'):
        F.deconvolution_nd(*args, **kwargs)


def test_invalid_values():
    with pytest.raises(AssertionError, match=r'deconvolution_nd.*output sizes.*\(-15,\)'):
        F.deconvolution_nd(_x, _W, pad=10)
    with pytest.raises(TypeError, match='groups=2 and 3 input'):
        F.deconvolution_nd(_x, _W, groups=2)
    with pytest.raises(AssertionError, match='outsize'):
        F.deconvolution_nd(_x, _W, outsize=(7, 7))
    with pytest.raises(ValueError, match='should be 1.*deconvolution_1d'):
        F.deconvolution_1d(numpy.zeros((2, 3, 4, 4), numpy.float32), _W)
    with pytest.raises(ValueError, match='should be 3.*deconvolution_3d'):
        F.deconvolution_3d(_x, _W)
