"""L.BlackOut: the case table and its unset weights."""
import numpy

import chainer.links as L
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('BlackOut')
class TestBlackOut(_cases.LinkTest):
    pass


TestBlackOutChecks = _cases.checks('BlackOut')


def test_weights_start_unset():
    bo = L.BlackOut(3, [1, 2, 3, 4], 2)
    assert numpy.isnan(bo.W.array).all()      # as in Chainer: to be set by the user
    bo.W.array[...] = _x(4, 3)
    x, t = _x(2, 3), numpy.array([0, 1], 'i')
    assert bo(x, t).shape == ()


def test_module_path():
    assert L.BlackOut.__module__ == 'chainer.links.loss.black_out'
