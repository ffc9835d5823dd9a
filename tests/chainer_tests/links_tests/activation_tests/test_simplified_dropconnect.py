"""L.SimplifiedDropconnect: the case table, test mode and masks."""
import numpy
import pytest

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer.utils import type_check
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('SimplifiedDropconnect')
class TestSimplifiedDropconnect(_cases.LinkTest):
    pass


TestSimplifiedDropconnectChecks = _cases.checks('SimplifiedDropconnect',
                                                lazy=('SimplifiedDropconnect',))


def test_test_mode_and_masks():
    d = L.SimplifiedDropconnect(3, 2)
    x2 = _x(4, 3)
    testing.assert_allclose(d(x2, train=False).array, F.linear(x2, d.W, d.b).array)
    mask = numpy.ones((4, 2, 3), bool)
    testing.assert_allclose(d(x2, mask=mask).array, F.linear(x2, 2 * d.W, d.b).array)
    with pytest.raises(type_check.InvalidType):
        d(x2, mask=numpy.ones((3, 2), bool))


def test_module_path():
    assert L.SimplifiedDropconnect.__module__ == 'chainer.links.activation.simplified_dropconnect'
