import numpy

import chainer.functions as F
from chainer_tests.functions_tests.connection_tests import _conv_testing


@_conv_testing.parameterize([
    {'x_shape': (2, 3, 5, 4), 'W_shape': (2, 3, 3, 3), 'options': {'pad': 2, 'dilate': 2}},
    {'x_shape': (1, 2, 4, 3), 'W_shape': (2, 2, 3, 3),
     'options': {'stride': 2, 'pad': 2, 'dilate': 2, 'cover_all': True}},
    {'x_shape': (2, 2, 7, 5), 'W_shape': (3, 2, 2, 2),
     'options': {'stride': (1, 2), 'dilate': (3, 1)}},
])
class TestDilatedConvolution2D(_conv_testing.ConvTestCase):
    function = F.dilated_convolution_2d
    reference_function = _conv_testing.convolution


def test_signature_order():
    # dilate comes before cover_all, unlike convolution_2d's keyword options.
    x = numpy.random.rand(1, 1, 5, 5)
    W = numpy.random.rand(1, 1, 2, 2)
    y = F.dilated_convolution_2d(x, W, None, 1, 0, 2, True)
    assert y.shape == (1, 1, 3, 3)
