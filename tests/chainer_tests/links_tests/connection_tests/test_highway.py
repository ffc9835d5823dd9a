"""L.Highway: the case table, its formula and gate bias."""
import numpy

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('Highway')
class TestHighway(_cases.LinkTest):
    pass


TestHighwayChecks = _cases.checks('Highway')


def test_highway_formula():
    h = L.Highway(3)
    x = _x(4, 3)
    plain = F.relu(F.linear(x, h.plain.W, h.plain.b)).array
    t = F.sigmoid(F.linear(x, h.transform.W, h.transform.b)).array
    testing.assert_allclose(h(x).array, plain * t + x * (1 - t), atol=1e-6)
    testing.assert_allclose(h.transform.b.array, [-1, -1, -1])


def test_module_path():
    assert L.Highway.__module__ == 'chainer.links.connection.highway'
