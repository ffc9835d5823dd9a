"""L.Swish: the case table, lazy beta and the formula."""
import numpy

import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('Swish')
class TestSwish(_cases.LinkTest):
    pass


TestSwishChecks = _cases.checks('Swish', lazy=('Swish',))


def test_lazy_beta_and_formula():
    x = _x(2, 3, 4)
    s = L.Swish(None)
    s(x)
    assert s.beta.shape == (3, 4)
    testing.assert_allclose(s(x).array, x / (1 + numpy.exp(-x)), atol=1e-6)


def test_module_path():
    assert L.Swish.__module__ == 'chainer.links.activation.swish'
