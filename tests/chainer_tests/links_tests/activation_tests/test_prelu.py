"""L.PReLU: the case table and its slope."""
import numpy

import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('PReLU')
class TestPReLU(_cases.LinkTest):
    pass


TestPReLUChecks = _cases.checks('PReLU')


def test_slope():
    x = _x(2, 3, 4)
    p = L.PReLU((3,), init=0.5)
    testing.assert_allclose(p(x).array, numpy.where(x > 0, x, 0.5 * x))


def test_module_path():
    assert L.PReLU.__module__ == 'chainer.links.activation.prelu'
