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
    ((2, 3, 7), (2, 3, 3), {}),
    ((1, 2, 6), (4, 2, 2), {'stride': 2, 'pad': 1, 'cover_all': True, 'dilate': 2}),
    ((2, 4, 5), (6, 2, 3), {'pad': 1, 'groups': 2}),
    ((2, 2, 4, 3), (3, 2, 2, 3), {'stride': (2, 1), 'pad': (0, 1)}),
    ((2, 2, 4, 3, 3), (2, 2, 2, 2, 2), {}),
    ((1, 4, 3, 4, 1), (2, 2, 3, 2, 1), {'stride': (1, 2, 1), 'pad': (1, 0, 0),
                                        'dilate': (1, 2, 1), 'cover_all': True,
                                        'groups': 2}),
    # 64 or more outputs per sample: one GEMM per sample (the cases above: one per batch)
    ((2, 2, 70), (3, 2, 3), {'dilate': 2}),
    ((2, 2, 6, 5, 4), (2, 1, 2, 1, 1), {'pad': (0, 1, 0), 'groups': 2}),
]


@_conv_testing.parameterize([{'x_shape': x, 'W_shape': w, 'options': o} for x, w, o in _CASES])
class TestConvolutionND(_conv_testing.ConvTestCase):
    function = F.convolution_nd
    reference_function = _conv_testing.convolution


@testing.parameterize(*testing.product({
    'ndim': [1, 3],
    'dtype': [numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestConvolution1D3D(_conv_testing.ConvTestCase):
    options = {'stride': 2, 'pad': 1}
    reference_function = _conv_testing.convolution

    def setUp(self):
        super().setUp()
        self.x_shape = (2, 2) + (4, 3, 3)[:self.ndim]
        self.W_shape = (3, 2) + (2,) * self.ndim

    def call(self, x, W, b):
        func = F.convolution_1d if self.ndim == 1 else F.convolution_3d
        return func(x, W, b, **self.options)


def test_no_spatial_axes_is_a_matrix_product():
    x, W, b = numpy.random.rand(2, 3), numpy.random.rand(4, 3), numpy.random.rand(4)
    numpy.testing.assert_allclose(F.convolution_nd(x, W, b).array, x @ W.T + b)


def test_gradient_nodes():
    x = chainer.Variable(numpy.random.rand(2, 2, 4, 4, 4))
    W = chainer.Variable(numpy.random.rand(3, 2, 2, 2, 2))
    y = F.convolution_nd(x, W, stride=2)
    assert type(y.creator) is convolution_nd.ConvolutionND
    assert y.creator.stride == (2, 2, 2) and y.creator.ndim == 3
    gx, gW = chainer.grad([y], [x, W], enable_double_backprop=True)
    assert type(gx.creator) is deconvolution_nd.DeconvolutionND
    assert type(gW.creator) is convolution_nd.ConvolutionNDGradW
    assert gW.creator.ksize == (2, 2, 2)


def test_noncontiguous_output_gradient():
    x = chainer.Variable(numpy.ones((2, 3, 4), numpy.float32))
    y = F.convolution_nd(x, numpy.ones((1, 3, 3), numpy.float32))
    F.sum(y).backward()     # the gradient of sum is a broadcast (non-contiguous) array
    numpy.testing.assert_array_equal(x.grad[0, 0], [1, 2, 2, 1])


_x = numpy.zeros((2, 3, 5, 5), numpy.float32)
_W = numpy.zeros((4, 3, 3, 3), numpy.float32)


@pytest.mark.parametrize('args', [
    (_x, numpy.zeros((4, 2, 3, 3), numpy.float32)),       # channel mismatch
    (_x, _W[:, :, 0]),                                    # W.ndim
    (_x, _W.astype(numpy.int32)),                         # W.dtype
    (_x, _W, numpy.zeros(3, numpy.float32)),              # b size
    (_x, _W, numpy.zeros(4, numpy.int32)),                # b dtype
])
def test_invalid_type(args):
    with pytest.raises(type_check.InvalidType, match='ConvolutionND'):
        F.convolution_nd(*args)


def test_invalid_number_of_inputs():
    with pytest.raises(type_check.InvalidType, match='in_types.size'):
        convolution_nd.ConvolutionND(2).apply((_x,))
    with pytest.raises(type_check.InvalidType, match='in_types.size'):
        convolution_nd.ConvolutionND(2).apply((_x, _W, _W, _W))


def test_groups_must_divide_channels():
    x = numpy.zeros((2, 4, 5, 5), numpy.float32)
    with pytest.raises(type_check.InvalidType, match=r'in_types\[0\].shape\[1\] == in_types\[1\].shape\[1\] \* 3'):
        F.convolution_nd(x, numpy.zeros((3, 1, 3, 3), numpy.float32), groups=3)
    with pytest.raises(TypeError, match=r'convolution_nd.*groups=2 and 3 output'):
        F.convolution_nd(x, numpy.zeros((3, 2, 3, 3), numpy.float32), groups=2)


def test_kernel_larger_than_padded_input():
    with pytest.raises(AssertionError, match=r'convolution_nd.*\(7, 7\).*\(5, 5\)'):
        F.convolution_nd(_x, numpy.zeros((4, 3, 7, 7), numpy.float32))


def test_wrong_number_of_spatial_axes():
    with pytest.raises(ValueError, match='should be 1.*convolution_1d'):
        F.convolution_1d(_x, _W)
    with pytest.raises(ValueError, match='should be 3.*convolution_3d'):
        F.convolution_3d(_x, _W)
    with pytest.raises(AssertionError, match='stride'):
        F.convolution_nd(_x, _W, stride=(1, 1, 1))
