"""L.Maxout: the case table and the maximum over pools."""
import numpy

import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('Maxout')
class TestMaxout(_cases.LinkTest):
    pass


TestMaxoutChecks = _cases.checks('Maxout')


def test_maximum_over_each_pool():
    m = L.Maxout(3, 4, 2)
    x = _x(5, 3)
    z = (x @ m.linear.W.array.T + m.linear.b.array).reshape(5, 4, 2)
    testing.assert_allclose(m(x).array, z.max(axis=2), atol=1e-6)


def test_module_path():
    assert L.Maxout.__module__ == 'chainer.links.activation.maxout'
