import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.connection import convolution_2d
from chainer.functions.connection import deconvolution_2d
from chainer.utils import type_check
from chainer_tests.functions_tests.connection_tests import _conv_testing

# (x shape, W shape, options): odd sizes, non-square kernels, strides, pads, dilations,
# groups, cover_all, batch 1 and size-1 spatial axes.
_CASES = [
    ((2, 3, 5, 4), (2, 3, 3, 3), {}),
    ((2, 3, 5, 6), (4, 3, 2, 3), {'stride': (2, 1), 'pad': (1, 2)}),
    ((1, 2, 6, 5), (3, 2, 3, 3), {'stride': 2, 'pad': 1, 'cover_all': True}),
    ((2, 2, 5, 5), (2, 2, 3, 2), {'pad': 2, 'dilate': 2}),
    ((2, 4, 4, 5), (6, 2, 2, 2), {'dilate': (1, 2), 'groups': 2}),
    ((2, 6, 5, 4), (3, 2, 3, 1), {'stride': (1, 2), 'pad': 1, 'groups': 3,
                                  'cover_all': True}),
    ((1, 2, 1, 4), (3, 2, 1, 3), {}),
    ((2, 2, 3, 3), (2, 2, 5, 5), {'pad': 1}),       # kernel as large as the padded input
    ((2, 3, 3, 4), (2, 3, 1, 1), {'stride': 2}),
    # 64 or more outputs per sample: one GEMM per sample (the cases above: one per batch)
    ((2, 3, 10, 9), (4, 3, 2, 2), {}),
    ((2, 4, 17, 9), (4, 2, 3, 3), {'stride': (2, 1), 'pad': 1, 'groups': 2}),
]


@_conv_testing.parameterize([{'x_shape': x, 'W_shape': w, 'options': o} for x, w, o in _CASES])
class TestConvolution2D(_conv_testing.ConvTestCase):
    function = F.convolution_2d
    reference_function = _conv_testing.convolution


@testing.parameterize(
    {'x_dtype': numpy.float16, 'W_dtype': numpy.float32},
    {'x_dtype': numpy.float32, 'W_dtype': numpy.float64},
    {'x_dtype': numpy.float64, 'W_dtype': numpy.float16},
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestConvolution2DMixedDtypes(_conv_testing.ConvTestCase):
    # The output and each gradient keep their own input's dtype.
    x_shape, W_shape, options = (2, 3, 4, 4), (2, 3, 3, 3), {'pad': 1}
    dtype = None
    function = F.convolution_2d
    reference_function = _conv_testing.convolution


def test_known_values():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    W = numpy.array([[[[1, 0], [0, -1]]]], numpy.float32)
    y = F.convolution_2d(x, W, numpy.array([0.5], numpy.float32), stride=2)
    numpy.testing.assert_array_equal(y.array, [[[[-4.5, -4.5], [-4.5, -4.5]]]])


def test_gradients_are_deconvolution_and_grad_w_nodes():
    x = chainer.Variable(numpy.random.rand(2, 4, 5, 5))
    W = chainer.Variable(numpy.random.rand(6, 2, 3, 3))
    y = F.convolution_2d(x, W, stride=2, pad=1, groups=2, dilate=(1, 2))
    assert type(y.creator) is convolution_2d.Convolution2DFunction
    gx, gW = chainer.grad([y], [x, W], enable_double_backprop=True)
    assert type(gx.creator) is deconvolution_2d.Deconvolution2DFunction
    assert type(gW.creator) is convolution_2d.Convolution2DGradW
    assert gW.creator.W_shape == (6, 2, 3, 3)
    assert (gW.creator.kh, gW.creator.kw) == (3, 3)


def test_node_attributes():
    f = convolution_2d.Convolution2DFunction((2, 3), (1, 0), True, dilate=(1, 2), groups=4)
    assert (f.sy, f.sx, f.ph, f.pw, f.dy, f.dx) == (2, 3, 1, 0, 1, 2)
    assert f.cover_all is True
    assert f.groups == 4
    assert f.cudnn_fast is False
    assert F.convolution_2d.__module__ == 'chainer.functions.connection.convolution_2d'


def test_output_keeps_x_dtype_gradients_keep_theirs():
    x = chainer.Variable(numpy.random.rand(1, 2, 3, 3).astype(numpy.float16))
    W = chainer.Variable(numpy.random.rand(2, 2, 2, 2).astype(numpy.float32))
    b = chainer.Variable(numpy.random.rand(2).astype(numpy.float16))
    y = F.convolution_2d(x, W, b)
    assert y.dtype == numpy.float16
    y.grad = numpy.ones(y.shape, y.dtype)
    y.backward()
    assert (x.grad.dtype, W.grad.dtype, b.grad.dtype) == (
        numpy.float16, numpy.float32, numpy.float16)


def test_only_needed_gradients():
    x = numpy.random.rand(2, 2, 4, 4).astype(numpy.float32)
    W = chainer.Variable(numpy.random.rand(3, 2, 3, 3).astype(numpy.float32))
    y = F.convolution_2d(x, W)
    y.grad = numpy.ones(y.shape, y.dtype)
    y.backward()
    assert W.grad is not None


_x = numpy.zeros((2, 3, 5, 5), numpy.float32)
_W = numpy.zeros((4, 3, 3, 3), numpy.float32)


@pytest.mark.parametrize('args, kwargs', [
    ((_x, numpy.zeros((4, 2, 3, 3), numpy.float32)), {}),             # channel mismatch
    ((_x[0], _W), {}),                                                # x.ndim
    ((_x, _W[0]), {}),                                                # W.ndim
    ((_x.astype(numpy.int32), _W), {}),                               # x.dtype
    ((_x, _W, numpy.zeros(3, numpy.float32)), {}),                    # b size
    ((_x, _W, numpy.zeros(4, numpy.float64)), {}),                    # b dtype
    ((_x, _W, numpy.zeros((4, 1), numpy.float32)), {}),               # b.ndim
])
def test_invalid_type(args, kwargs):
    with pytest.raises(type_check.InvalidType, match='Convolution2DFunction'):
        F.convolution_2d(*args, **kwargs)


def test_groups_must_divide_channels():
    x = numpy.zeros((2, 4, 5, 5), numpy.float32)
    with pytest.raises(ValueError, match=r'convolution_2d.*groups=2 and 3 output'):
        F.convolution_2d(x, numpy.zeros((3, 2, 3, 3), numpy.float32), groups=2)
    with pytest.raises(type_check.InvalidType, match=r'in_types\[0\].shape\[1\] == in_types\[1\].shape\[1\] \* 3'):
        F.convolution_2d(x, numpy.zeros((3, 1, 3, 3), numpy.float32), groups=3)


def test_kernel_larger_than_padded_input():
    with pytest.raises(AssertionError, match=r'convolution_2d.*\(7, 7\).*\(5, 5\)'):
        F.convolution_2d(_x, numpy.zeros((4, 3, 7, 7), numpy.float32))
    assert F.convolution_2d(_x, numpy.zeros((4, 3, 7, 7), numpy.float32), pad=1).shape == (
        2, 4, 1, 1)


@pytest.mark.parametrize('kwargs, error', [
    ({'deterministic': True}, ValueError),
    ({'train': True}, TypeError),
    ({'stride': 0}, ValueError),
    ({'pad': -1}, ValueError),
    ({'dilate': 0}, ValueError),
    ({'groups': 0}, ValueError),
    ({'stride': (1, 2, 3)}, ValueError),
    ({'stride': 1.5}, TypeError),
    ({'pad': (1, 0.5)}, TypeError),
])
def test_invalid_arguments(kwargs, error):
    with pytest.raises(error, match='convolution_2d|deterministic'):
        F.convolution_2d(_x, _W, **kwargs)


def test_cudnn_fast_is_accepted_but_cannot_run():
    assert F.convolution_2d(_x, _W, cudnn_fast=False).shape == (2, 4, 3, 3)
    assert convolution_2d.Convolution2DFunction(cudnn_fast=True).cudnn_fast is True
    with pytest.raises(RuntimeError, match='cudnn_fast'):
        F.convolution_2d(_x, _W, cudnn_fast=True)
    with pytest.raises(TypeError, match='cudnn_fast'):
        F.deconvolution_2d(_x, _W, cudnn_fast=False)


def test_matches_convolution_nd():
    x = numpy.random.rand(2, 4, 6, 5)
    W = numpy.random.rand(4, 2, 3, 2)
    options = {'stride': (2, 1), 'pad': 1, 'cover_all': True, 'dilate': (1, 2), 'groups': 2}
    numpy.testing.assert_allclose(F.convolution_2d(x, W, **options).array,
                                  F.convolution_nd(x, W, **options).array)
