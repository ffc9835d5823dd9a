import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


def _huber(x, t, delta):
    d = x.astype(numpy.float64) - t
    return numpy.where(abs(d) <= delta, 0.5 * d * d, delta * (abs(d) - 0.5 * delta))


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (2, 3, 4)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['sum_along_second_axis', 'no'],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestHuberLoss(testing.FunctionTestCase):

    delta = 0.7

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, self.shape).astype(self.dtype)
        t = numpy.random.uniform(-2, 2, self.shape).astype(self.dtype)
        # Keep |x - t| off the two points where the loss changes form.
        d = abs(abs(x.astype(numpy.float64) - t) - self.delta)
        x[d < 0.05] += 0.2
        return x, t

    def forward(self, inputs, device):
        return F.huber_loss(*inputs, delta=self.delta, reduce=self.reduce),

    def forward_expected(self, inputs):
        y = _huber(*inputs, self.delta)
        if self.reduce == 'sum_along_second_axis':
            y = y.sum(axis=1)
        return y.astype(self.dtype),


def test_bad_input():
    x = numpy.zeros((2, 3), 'f')
    check_bad_reduce(lambda r: F.huber_loss(x, x, 1., reduce=r), 'huber_loss')
    with pytest.raises(type_check.InvalidType, match='HuberLoss'):
        F.huber_loss(x, x.astype('d'), 1.)
