import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shapes': [((3, 2), (3, 2)), ((3, 2), (2,)), ((), ()), ((0, 2), (1, 2))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSquaredDifference(testing.FunctionTestCase):

    def setUp(self):
        if self.dtype == numpy.float16:
            self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
            self.check_backward_options = {'atol': 5e-3, 'rtol': 5e-2}
            self.check_double_backward_options = {'atol': 1e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        s1, s2 = self.shapes
        return (numpy.random.uniform(-1, 1, s1).astype(self.dtype),
                numpy.random.uniform(-1, 1, s2).astype(self.dtype))

    def forward(self, inputs, device):
        return F.squared_difference(*inputs),

    def forward_expected(self, inputs):
        x1, x2 = inputs
        return numpy.asarray((x1 - x2) ** 2, self.dtype),


def test_invalid():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='squared_difference'):
        F.squared_difference(x, x.astype(numpy.float16))
    with pytest.raises(type_check.InvalidType, match='squared_difference'):
        F.squared_difference(x, numpy.zeros((3, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='squared_difference'):
        F.squared_difference(numpy.zeros(2, numpy.int32), numpy.zeros(2, numpy.int32))
