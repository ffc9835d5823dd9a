"""L.Inception: the case table and the channels it concatenates."""
import numpy

import chainer.links as L
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('Inception')
class TestInception(_cases.LinkTest):
    pass


TestInceptionChecks = _cases.checks('Inception')


def test_channels():
    assert L.Inception(3, 2, 2, 3, 2, 3, 2)(_x(1, 3, 6, 6)).shape == (1, 10, 6, 6)


def test_module_path():
    assert L.Inception.__module__ == 'chainer.links.connection.inception'
