"""L.LocalConvolution2D: the case table, what it computes, strides."""
import numpy

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('LocalConvolution2D')
class TestLocalConvolution2D(_cases.LinkTest):
    pass


TestLocalConvolution2DChecks = _cases.checks('LocalConvolution2D', lazy=('LocalConvolution2D',))


def test_local_convolution_matches_function():
    lc = L.LocalConvolution2D(2, 3, (5, 4), 3, stride=1)
    x = _x(2, 2, 5, 4)
    assert lc.W.shape == (3, 3, 2, 2, 3, 3) and lc.b.shape == (3, 3, 2)
    testing.assert_allclose(lc(x).array, F.local_convolution_2d(x, lc.W, lc.b).array)
    # With a stride the parameters are sized for the strided output (Chainer 7.8.1
    # sizes them as for stride 1, and then cannot run).
    strided = L.LocalConvolution2D(2, 3, ksize=3, stride=2)
    y = strided(_x(1, 2, 6, 5))
    assert y.shape == (1, 3, 2, 2) and strided.W.shape == (3, 2, 2, 2, 3, 3)


def test_module_path():
    assert L.LocalConvolution2D.__module__ == 'chainer.links.connection.local_convolution_2d'
