import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


def _cov(y, z):
    y = y.astype(numpy.float64)
    z = z.astype(numpy.float64)
    return (y - y.mean(0)).T.dot(z - z.mean(0)) / len(y)


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['half_squared_sum', 'no'],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestCrossCovariance(testing.FunctionTestCase):

    # float16: a covariance of float16 values, squared
    tolerances = {numpy.float16: (None, None, 5e-2)}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (5, 3)).astype(self.dtype),
                numpy.random.uniform(-1, 1, (5, 2)).astype(self.dtype))

    def forward(self, inputs, device):
        return F.cross_covariance(*inputs, reduce=self.reduce),

    def forward_expected(self, inputs):
        c = _cov(*inputs)
        if self.reduce == 'half_squared_sum':
            c = 0.5 * (c ** 2).sum()
        return numpy.asarray(c, self.dtype),


def test_bad_input():
    y = numpy.zeros((4, 3), 'f')
    check_bad_reduce(lambda r: F.cross_covariance(y, y, reduce=r), 'cross_covariance')
    with pytest.raises(type_check.InvalidType, match='CrossCovariance'):
        F.cross_covariance(y, numpy.zeros((5, 3), 'f'))
