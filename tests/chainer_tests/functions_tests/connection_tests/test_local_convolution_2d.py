import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.connection import local_convolution_2d
from chainer.utils import type_check


def _reference(x, W, b, stride):
    # One dot product per output pixel and output channel, each with its own filter.
    sy, sx = stride
    out_c, out_h, out_w, _, kh, kw = W.shape
    y = numpy.zeros((x.shape[0], out_c, out_h, out_w))
    for n in range(x.shape[0]):
        for o in range(out_c):
            for i in range(out_h):
                for j in range(out_w):
                    patch = x[n, :, i * sy:i * sy + kh, j * sx:j * sx + kw]
                    y[n, o, i, j] = (patch.astype(numpy.float64) * W[o, i, j]).sum()
                    if b is not None:
                        y[n, o, i, j] += b[o, i, j]
    return y


@testing.parameterize(*testing.product_dict(
    [
        {'x_shape': (2, 3, 4, 4), 'ksize': (3, 3), 'stride': (1, 1)},
        {'x_shape': (1, 2, 5, 7), 'ksize': (2, 3), 'stride': (2, 2)},
        {'x_shape': (2, 1, 3, 6), 'ksize': (3, 2), 'stride': (1, 3)},   # out_h == 1
        {'x_shape': (1, 2, 2, 2), 'ksize': (2, 2), 'stride': (1, 1)},   # one output pixel
    ],
    [
        {'x_dtype': numpy.float16, 'W_dtype': numpy.float16},
        {'x_dtype': numpy.float32, 'W_dtype': numpy.float32},
        {'x_dtype': numpy.float64, 'W_dtype': numpy.float64},
        {'x_dtype': numpy.float32, 'W_dtype': numpy.float64},
        {'x_dtype': numpy.float64, 'W_dtype': numpy.float16},
    ],
    [{'nobias': False}, {'nobias': True}],
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLocalConvolution2D(testing.FunctionTestCase):

    # float16 (x or W): each output sums a window of float16 products
    tolerances = {numpy.float16: (5e-3, 2e-2, 5e-2)}

    def generate_inputs(self):
        n, c, h, w = self.x_shape
        kh, kw = self.ksize
        out_h = (h - kh) // self.stride[0] + 1
        out_w = (w - kw) // self.stride[1] + 1
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.x_dtype)
        W = numpy.random.uniform(-1, 1, (4, out_h, out_w, c, kh, kw)).astype(self.W_dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, (4, out_h, out_w)).astype(self.x_dtype)

    def forward(self, inputs, device):
        return F.local_convolution_2d(*inputs, stride=self.stride),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        b = None if self.nobias else inputs[2]
        return _reference(x, W, b, self.stride).astype(self.x_dtype),


def test_gradients_keep_each_input_dtype():
    x = chainer.Variable(numpy.random.rand(1, 2, 3, 3).astype(numpy.float16))
    W = chainer.Variable(numpy.random.rand(3, 2, 2, 2, 2, 2))
    y = F.local_convolution_2d(x, W)
    assert y.dtype == numpy.float16
    F.sum(y).backward()
    assert x.grad.dtype == numpy.float16 and W.grad.dtype == numpy.float64


def test_node_class_and_stride_pair():
    x = numpy.random.rand(2, 2, 5, 4).astype(numpy.float32)
    W = numpy.random.rand(3, 2, 2, 2, 3, 3).astype(numpy.float32)
    y, = local_convolution_2d.LocalConvolution2DFunction((2, 1)).apply((x, W))
    numpy.testing.assert_allclose(y.array, _reference(x, W, None, (2, 1)), rtol=1e-5)
    assert isinstance(y.creator, local_convolution_2d.LocalConvolution2DFunction)


@pytest.mark.parametrize('x_shape, W_shape, b_shape, match', [
    # (Chainer calls the inputs in_types[0] (x), [1] (W) and [2] (b) here)
    ((2, 3, 4, 4), (6, 2, 2, 4, 3, 3), None,
     r'in_types\[0\].shape\[1\] == in_types\[1\].shape\[3\]'),
    ((3, 4, 4), (6, 2, 2, 3, 3, 3), None, r'in_types\[0\].ndim == 4'),
    ((2, 3, 4, 4), (6, 2, 2, 3, 3, 3), (6, 2, 3),
     r'in_types\[2\].shape == in_types\[1\].shape\[:3\]'),
    ((2, 3, 4, 4), (6, 2, 2, 3, 3, 3), (6, 4), r'in_types\[2\].ndim == 3'),
])
def test_invalid_types(x_shape, W_shape, b_shape, match):
    args = [numpy.ones(x_shape, numpy.float32), numpy.ones(W_shape, numpy.float32)]
    if b_shape is not None:
        args.append(numpy.ones(b_shape, numpy.float32))
    with pytest.raises(type_check.InvalidType, match=match):
        F.local_convolution_2d(*args)


def test_integer_input_is_rejected():
    with pytest.raises(type_check.InvalidType, match=r'in_types\[0\].dtype.kind == f'):
        F.local_convolution_2d(numpy.ones((1, 1, 3, 3), numpy.int32),
                               numpy.ones((1, 1, 1, 1, 3, 3), numpy.float32))


@pytest.mark.parametrize('x_shape, W_shape, stride, match', [
    ((2, 3, 4, 4), (6, 3, 2, 3, 3, 3), 1, r'which is 2x2, got 3x2'),
    ((2, 3, 4, 4), (6, 2, 2, 3, 3, 3), 2, r'stride \(2, 2\), which is 1x1, got 2x2'),
    ((2, 3, 4, 4), (6, 1, 1, 3, 5, 5), 1, r'kernel 5x5.*which is 0x0'),
])
def test_output_size_must_match_W(x_shape, W_shape, stride, match):
    with pytest.raises(ValueError, match='local_convolution_2d: .*' + match):
        F.local_convolution_2d(numpy.ones(x_shape, numpy.float32),
                               numpy.ones(W_shape, numpy.float32), stride=stride)
