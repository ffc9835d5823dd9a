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
class TestTanh(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.tanh(*inputs),

    def forward_expected(self, inputs):
        return numpy.tanh(inputs[0]),


def test_label():
    assert F.tanh(numpy.ones(2, numpy.float32)).creator.label == 'Tanh'


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='Tanh'):
        F.tanh(numpy.ones(3, numpy.int32))
