import numpy
import pytest

import chainer.functions as F
from chainer.utils import type_check
from chainer_tests.functions_tests.connection_tests import _conv_testing


def _reference(x, W, b, stride=1, pad=0):
    # Channel c convolved with each of its m filters gives output channel c * m + i.
    m, c = W.shape[:2]
    y = numpy.concatenate([
        _conv_testing.convolution(x[:, ch:ch + 1], W[i:i + 1, ch:ch + 1], None, stride, pad)
        for ch in range(c) for i in range(m)], axis=1)
    return y if b is None else y + b.reshape(-1, 1, 1)


@_conv_testing.parameterize([
    {'x_shape': (2, 3, 5, 4), 'W_shape': (2, 3, 3, 3), 'options': {}},
    {'x_shape': (1, 2, 6, 5), 'W_shape': (1, 2, 2, 3),
     'options': {'stride': (2, 1), 'pad': (1, 0)}},
    {'x_shape': (2, 1, 3, 1), 'W_shape': (3, 1, 3, 1), 'options': {'stride': 2, 'pad': 1}},
])
class TestDepthwiseConvolution2D(_conv_testing.ConvTestCase):
    function = F.depthwise_convolution_2d
    reference_function = _reference

    @property
    def b_size(self):
        return self.W_shape[0] * self.W_shape[1]


def test_invalid():
    x = numpy.zeros((2, 3, 5, 5), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='Convolution2DFunction'):
        F.depthwise_convolution_2d(x, numpy.zeros((2, 4, 3, 3), numpy.float32))
    with pytest.raises(ValueError, match=r'depthwise_convolution_2d.*\(3, 3, 3\)'):
        F.depthwise_convolution_2d(x, numpy.zeros((3, 3, 3), numpy.float32))
