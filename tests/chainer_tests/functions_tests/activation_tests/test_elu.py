import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'alpha': [1.0, 0.3],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestELU(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the second derivative jumps at 0

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.elu(*inputs, alpha=self.alpha),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.where(x > 0, x, self.alpha * numpy.expm1(x)).astype(self.dtype),


def test_large_negative_and_positive_inputs():
    x = numpy.array([-1e4, 1e4], numpy.float32)
    with numpy.errstate(all='raise'):
        y = F.elu(x).array
    numpy.testing.assert_array_equal(y, [-1, 1e4])


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='ELU'):
        F.elu(numpy.ones(3, numpy.int32))
