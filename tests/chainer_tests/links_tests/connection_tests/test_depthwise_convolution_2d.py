"""L.DepthwiseConvolution2D: the case table, and what it computes."""
import numpy

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('DepthwiseConvolution2D')
class TestDepthwiseConvolution2D(_cases.LinkTest):
    pass


TestDepthwiseConvolution2DChecks = _cases.checks('DepthwiseConvolution2D',
                                                 lazy=('DepthwiseConvolution2D',))


def test_calls_its_function():
    x = _x(2, 4, 6, 6)
    dw = L.DepthwiseConvolution2D(4, 2, 3)
    testing.assert_allclose(dw(x).array,
                            F.depthwise_convolution_2d(x, dw.W, dw.b).array)


def test_module_path():
    assert L.DepthwiseConvolution2D.__module__ == \
        'chainer.links.connection.depthwise_convolution_2d'
