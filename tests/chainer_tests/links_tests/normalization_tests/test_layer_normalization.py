"""L.LayerNormalization: the case table, the formula, empty batches."""
import numpy

import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('LayerNormalization')
class TestLayerNormalization(_cases.LinkTest):
    pass


TestLayerNormalizationChecks = _cases.checks('LayerNormalization', lazy=('LayerNormalization',))


def test_formula_and_empty_batch():
    ln = L.LayerNormalization()
    x2 = _x(5, 3)
    testing.assert_allclose(ln(x2).array, (x2 - x2.mean(1, keepdims=True)) / numpy.sqrt(
        x2.var(1, keepdims=True) + 1e-6), atol=1e-5)
    assert ln(numpy.zeros((0, 3), 'f')).shape == (0, 3)


def test_module_path():
    assert L.LayerNormalization.__module__ == 'chainer.links.normalization.layer_normalization'
