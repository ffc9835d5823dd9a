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
class TestSquare(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.square(*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.square(inputs[0]), self.dtype),


def test_integer_input():
    with pytest.raises(type_check.InvalidType, match='square'):
        F.square(numpy.ones(3, numpy.int32))
