import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'beta': [1.0, 2.5],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSoftplus(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.softplus(*inputs, beta=self.beta),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return (numpy.log1p(numpy.exp(self.beta * x)) / self.beta).astype(self.dtype),


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_large_inputs_do_not_overflow(dtype):
    x = numpy.array([-1e4, 1e4], dtype)
    with numpy.errstate(over='raise'):
        y = F.softplus(x).array
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y, [0, 1e4])


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='Softplus'):
        F.softplus(numpy.ones(3, numpy.int32))
