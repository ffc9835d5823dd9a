"""L.Deconvolution2D: the case table, and what it computes."""
import numpy

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('Deconvolution2D', 'Deconvolution2D_outsize')
class TestDeconvolution2D(_cases.LinkTest):
    pass


TestDeconvolution2DChecks = _cases.checks('Deconvolution2D', 'Deconvolution2D_outsize',
                                          lazy=('Deconvolution2D',))


def test_calls_its_function():
    x = _x(2, 4, 6, 6)
    deconv = L.Deconvolution2D(4, 3, 3, stride=2, pad=1)
    testing.assert_allclose(deconv(x).array,
                            F.deconvolution_2d(x, deconv.W, deconv.b, 2, 1).array)
    assert L.Deconvolution2D(2, 3, 3).outsize == (None, None)


def test_module_path():
    assert L.Deconvolution2D.__module__ == 'chainer.links.connection.deconvolution_2d'
