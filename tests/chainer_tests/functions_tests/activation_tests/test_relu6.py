import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.activation import relu6 as relu6_module
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestReLU6(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(-8, 8, self.shape)
        x[numpy.abs(x) < 0.2] = 1
        x[numpy.abs(x - 6) < 0.2] = 7
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.relu6(*inputs),

    def forward_expected(self, inputs):
        return numpy.clip(inputs[0], 0, 6).astype(self.dtype),


def test_module_paths():
    assert relu6_module.relu6 is F.relu6
    assert chainer.functions.activation.clipped_relu.relu6 is F.relu6


def test_values_and_gradient():
    x = chainer.Variable(numpy.array([-3, 2, 10], numpy.float32))
    y = F.relu6(x)
    numpy.testing.assert_array_equal(y.array, [0, 2, 6])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [0, 1, 0])


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType):
        F.relu6(numpy.ones(3, numpy.int32))
