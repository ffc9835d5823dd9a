import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (5,), ()],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestMeanSquaredError(testing.FunctionTestCase):

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, self.shape).astype(self.dtype))

    def forward(self, inputs, device):
        return F.mean_squared_error(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = (a.astype(numpy.float64) for a in inputs)
        return numpy.asarray(((x0 - x1) ** 2).mean(), self.dtype),


def test_float16_sum_does_not_overflow():
    # 70000 squares of 1 overflow a float16 sum; the mean is still 1.
    x = numpy.ones(70000, numpy.float16)
    assert float(F.mean_squared_error(x, numpy.zeros_like(x)).array) == 1


@pytest.mark.parametrize('x0, x1', [
    (numpy.zeros((4, 3), 'i'), numpy.zeros((4, 3), 'i')),
    (numpy.zeros((4, 3), 'f'), numpy.zeros((4, 3), 'e')),
    (numpy.zeros((4, 3), 'f'), numpy.zeros((3,), 'f')),
])
def test_invalid(x0, x1):
    with pytest.raises(type_check.InvalidType, match='MeanSquaredError'):
        F.mean_squared_error(x0, x1)
