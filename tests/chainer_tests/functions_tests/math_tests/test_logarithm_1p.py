import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLog1p(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-0.5, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.log1p(*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.log1p(inputs[0]), self.dtype),


def test_small_input_is_accurate():
    x = numpy.array([1e-10], numpy.float64)
    numpy.testing.assert_allclose(F.log1p(x).array, x, rtol=1e-9)


def test_integer_input():
    with pytest.raises(type_check.InvalidType, match='log1p'):
        F.log1p(numpy.ones(3, numpy.int32))
