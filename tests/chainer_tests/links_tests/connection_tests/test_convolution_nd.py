"""L.ConvolutionND, L.Convolution1D and L.Convolution3D: the case table, and what they compute."""
import numpy

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('Convolution1D', 'Convolution3D', 'ConvolutionND')
class TestConvolutionND(_cases.LinkTest):
    pass


TestConvolutionNDChecks = _cases.checks('Convolution1D', 'Convolution3D', 'ConvolutionND',
                                        lazy=('ConvolutionND',))


def test_calls_its_function():
    x = _x(2, 4, 5, 5)
    nd = L.ConvolutionND(2, 4, 3, 2, cover_all=True, stride=2)
    testing.assert_allclose(nd(x).array, F.convolution_nd(
        x, nd.W, nd.b, 2, cover_all=True).array)


def test_from_params():
    c1 = L.Convolution1D.from_params(_x(4, 2, 3))
    assert type(c1) is L.Convolution1D and c1.W.shape == (4, 2, 3)
    nd = L.ConvolutionND.from_params(_x(4, 2, 3, 3, 3), nobias=True)
    assert nd.W.shape == (4, 2, 3, 3, 3) and nd.b is None


def test_module_paths():
    for name in ('ConvolutionND', 'Convolution1D', 'Convolution3D'):
        assert getattr(L, name).__module__ == 'chainer.links.connection.convolution_nd'
