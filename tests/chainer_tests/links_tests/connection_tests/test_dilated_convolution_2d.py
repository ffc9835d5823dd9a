"""L.DilatedConvolution2D: the case table, and what it computes."""
import numpy

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('DilatedConvolution2D')
class TestDilatedConvolution2D(_cases.LinkTest):
    pass


TestDilatedConvolution2DChecks = _cases.checks('DilatedConvolution2D',
                                               lazy=('DilatedConvolution2D',))


def test_calls_its_function():
    x = _x(2, 4, 6, 6)
    dil = L.DilatedConvolution2D(4, 2, 3, dilate=2)
    testing.assert_allclose(dil(x).array,
                            F.dilated_convolution_2d(x, dil.W, dil.b, dilate=2).array)


def test_module_path():
    assert L.DilatedConvolution2D.__module__ == 'chainer.links.connection.dilated_convolution_2d'
