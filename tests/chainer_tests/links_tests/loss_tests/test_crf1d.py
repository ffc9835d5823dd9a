"""L.CRF1d: the case table and its two layouts."""
import numpy

import chainer
import chainer.links as L
from chainer import testing
from chainer_tests.links_tests import _cases


def _x(*shape, dtype=numpy.float32):
    return numpy.random.uniform(-1, 1, shape).astype(dtype)


@_cases.cases('CRF1d')
class TestCRF1d(_cases.LinkTest):
    pass


TestCRF1dChecks = _cases.checks('CRF1d')


def test_crf1d_layouts():
    crf = L.CRF1d(3, initial_cost=chainer.initializers.Normal(1.))
    batch_major = _x(2, 4, 3)
    ys_batch = numpy.array([[0, 1, 2, 1], [2, 2, 0, 1]], 'i')
    time_major = [batch_major[:, i] for i in range(4)]
    ys_time = [ys_batch[:, i] for i in range(4)]
    testing.assert_allclose(crf(batch_major, ys_batch, transpose=True).array,
                            crf(time_major, ys_time).array)
    score_t, path_t = crf.argmax(batch_major, transpose=True)
    score, path = crf.argmax(time_major)
    testing.assert_allclose(score_t.array, score.array)
    testing.assert_allclose(numpy.stack(path_t), numpy.stack(path).T)


def test_module_path():
    assert L.CRF1d.__module__ == 'chainer.links.loss.crf1d'
