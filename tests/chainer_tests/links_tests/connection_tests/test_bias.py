"""L.Bias: the case table, its result and errors."""
import numpy
import pytest

import chainer
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('Bias', 'Bias_2inputs')
class TestBias(_cases.LinkTest):
    pass


TestBiasChecks = _cases.checks('Bias', 'Bias_2inputs')


def test_adds_along_the_axis():
    x = _x(2, 3, 4)
    b = L.Bias(1, (3,))
    b.b.array[...] = [1, 2, 3]
    testing.assert_allclose(b(x).array, x + numpy.array([1, 2, 3])[:, None])
    with pytest.raises(ValueError, match='Bias'):
        L.Bias(1)(x)
    with chainer.using_config('debug', True), pytest.raises(AssertionError):
        b(x, _x(3))


def test_module_path():
    assert L.Bias.__module__ == 'chainer.links.connection.bias'
