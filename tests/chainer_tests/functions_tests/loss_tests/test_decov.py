import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['half_squared_sum', 'no'],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestDeCov(testing.FunctionTestCase):

    # float16: a covariance of float16 values, squared
    tolerances = {numpy.float16: (None, None, 5e-2)}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (5, 3)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.decov(inputs[0], reduce=self.reduce),

    def forward_expected(self, inputs):
        h = inputs[0].astype(numpy.float64)
        n, m = h.shape
        c = numpy.zeros((m, m))
        for i in range(m):
            for j in range(m):
                if i != j:
                    c[i, j] = ((h[:, i] - h[:, i].mean()) * (h[:, j] - h[:, j].mean())).mean()
        if self.reduce == 'half_squared_sum':
            c = 0.5 * (c ** 2).sum()
        return numpy.asarray(c, self.dtype),


def test_bad_input():
    h = numpy.zeros((4, 3), 'f')
    check_bad_reduce(lambda r: F.decov(h, reduce=r), 'decov')
    with pytest.raises(type_check.InvalidType, match='DeCov'):
        F.decov(numpy.zeros(3, 'f'))
