"""L.Bilinear: the case table, what it computes, initializer errors."""
import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('Bilinear', 'Bilinear_nobias')
class TestBilinear(_cases.LinkTest):
    pass


TestBilinearChecks = _cases.checks('Bilinear', 'Bilinear_nobias')


def test_calls_its_function_and_checks_initializers():
    bl = L.Bilinear(2, 3, 4)
    e1, e2 = _x(5, 2), _x(5, 3)
    testing.assert_allclose(bl(e1, e2).array, F.bilinear(e1, e2, bl.W, bl.V1, bl.V2, bl.b).array)
    with pytest.raises(ValueError, match='tuple'):
        L.Bilinear(2, 3, 4, initial_bias=1)
    with pytest.raises(AssertionError, match='initialW'):
        L.Bilinear(2, 3, 4, initialW=_x(3, 3, 4))


def test_module_path():
    assert L.Bilinear.__module__ == 'chainer.links.connection.bilinear'
