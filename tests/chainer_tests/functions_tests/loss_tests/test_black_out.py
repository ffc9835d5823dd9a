import numpy
import pytest

import chainer.functions as F
from chainer import testing

from chainer.utils import type_check
from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['mean', 'no'],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestBlackOut(testing.FunctionTestCase):

    # float16: a log of a float16 sum of exponentials over the samples
    tolerances = {numpy.float16: (5e-3, 2e-2, 5e-2)}

    def setUp(self):
        self.t = numpy.array([0, 2, 4], numpy.int32)
        self.samples = numpy.array([[1, 2], [0, 3], [4, 1]], numpy.int32)

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype),
                numpy.random.uniform(-1, 1, (5, 2)).astype(self.dtype))

    def forward(self, inputs, device):
        x, w = inputs
        return F.black_out(x, device.send(self.t), w, device.send(self.samples),
                           reduce=self.reduce),

    def forward_expected(self, inputs):
        x, w = (a.astype(numpy.float64) for a in inputs)
        loss = numpy.zeros(3)
        for i in range(3):
            p = w[self.t[i]].dot(x[i])
            q = w[self.samples[i]].dot(x[i])
            z = numpy.exp(p) + numpy.exp(q).sum()
            loss[i] = -(numpy.log(numpy.exp(p) / z) + numpy.log(1 - numpy.exp(q) / z).sum())
        if self.reduce == 'mean':
            loss = loss.mean()
        return numpy.asarray(loss, self.dtype),


def test_bad_input():
    x = numpy.zeros((2, 3), 'f')
    w = numpy.zeros((4, 3), 'f')
    t = numpy.array([0, 1], 'i')
    s = numpy.array([[1, 2], [2, 3]], 'i')
    check_bad_reduce(lambda r: F.black_out(x, t, w, s, reduce=r), 'black_out')
    with pytest.raises(ValueError, match='black_out: label 4 in samples'):
        F.black_out(x, t, w, numpy.array([[1, 4], [2, 3]], 'i'))
    # (InvalidType, Chainer's type for a t of the wrong shape)
    with pytest.raises(type_check.InvalidType, match='black_out: t must have shape'):
        F.black_out(x, t[:1], w, s)
