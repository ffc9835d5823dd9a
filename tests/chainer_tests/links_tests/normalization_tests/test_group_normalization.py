"""L.GroupNormalization: the case table and its function."""
import numpy

import chainer.functions as F
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('GroupNormalization')
class TestGroupNormalization(_cases.LinkTest):
    pass


TestGroupNormalizationChecks = _cases.checks('GroupNormalization', lazy=('GroupNormalization',))


def test_calls_its_function():
    x = _x(3, 4, 2)
    gn = L.GroupNormalization(2)
    testing.assert_allclose(gn(x).array, F.group_normalization(
        x, 2, numpy.ones(4, 'f'), numpy.zeros(4, 'f')).array)


def test_module_path():
    assert L.GroupNormalization.__module__ == 'chainer.links.normalization.group_normalization'
