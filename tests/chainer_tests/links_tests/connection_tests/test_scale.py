"""L.Scale: the case table, its result and errors."""
import numpy
import pytest

import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('Scale', 'Scale_2inputs')
class TestScale(_cases.LinkTest):
    pass


TestScaleChecks = _cases.checks('Scale', 'Scale_2inputs')


def test_scales_along_the_axis():
    x = _x(2, 3, 4)
    s = L.Scale(1, (3,), bias_term=True)
    s.W.array[...] = 2
    testing.assert_allclose(s(x).array, 2 * x)
    with pytest.raises(ValueError, match='bias_shape'):
        L.Scale(bias_term=True)


def test_module_path():
    assert L.Scale.__module__ == 'chainer.links.connection.scale'
