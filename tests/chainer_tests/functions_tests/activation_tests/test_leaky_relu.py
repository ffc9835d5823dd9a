import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'slope': [0.2, -0.5],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLeakyReLU(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the kink at 0

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.leaky_relu(*inputs, slope=self.slope),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.where(x >= 0, x, x * self.dtype(self.slope)).astype(self.dtype),


def test_default_slope():
    x = numpy.array([-1, 0, 2], numpy.float32)
    numpy.testing.assert_allclose(F.leaky_relu(x).array, [-0.2, 0, 2])


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='LeakyReLU'):
        F.leaky_relu(numpy.ones(3, numpy.int32))
