"""L.NegativeSampling: the case table, zero weights, reductions and samples."""
import numpy

import chainer.links as L
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('NegativeSampling')
class TestNegativeSampling(_cases.LinkTest):
    pass


TestNegativeSamplingChecks = _cases.checks('NegativeSampling')


def test_zero_weights_reductions_and_samples():
    ns = L.NegativeSampling(3, [1, 2, 3, 4], 2)
    assert not ns.W.array.any()
    x, t = _x(2, 3), numpy.array([0, 1], 'i')
    assert ns(x, t).shape == () and ns(x, t, reduce='no').shape == (2,)
    loss, samples = ns(x, t, return_samples=True)
    assert samples.shape == (2, 3)


def test_module_path():
    assert L.NegativeSampling.__module__ == 'chainer.links.loss.negative_sampling'
