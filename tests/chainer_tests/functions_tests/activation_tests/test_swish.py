import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _expected(x, beta):
    shape = (1,) + beta.shape + (1,) * (x.ndim - beta.ndim - 1)
    x64 = x.astype(numpy.float64)
    return (x64 / (1 + numpy.exp(-beta.reshape(shape) * x64))).astype(x.dtype)


@testing.parameterize(*testing.product({
    'shapes': [((4, 3), (3,)), ((2, 3, 4), (3,)), ((2, 3, 4), (3, 4)), ((3, 2), ()),
               ((0, 3), (3,))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSwish(testing.FunctionTestCase):

    # float16: the second derivative of x * sigmoid(beta * x) is steep
    tolerances = {numpy.float16: (None, None, (3e-2, 1e-1))}

    def generate_inputs(self):
        x_shape, beta_shape = self.shapes
        x = numpy.random.uniform(-1, 1, x_shape).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, beta_shape).astype(self.dtype)
        return x, beta

    def forward(self, inputs, device):
        return F.swish(*inputs),

    def forward_expected(self, inputs):
        return _expected(*inputs),


@pytest.mark.parametrize('x, beta', [
    (numpy.ones((2, 3), numpy.int32), numpy.ones(3, numpy.int32)),
    (numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float64)),
    (numpy.ones((2, 3), numpy.float32), numpy.ones(2, numpy.float32)),
    (numpy.ones((3,), numpy.float32), numpy.ones(3, numpy.float32)),
])
def test_invalid_inputs(x, beta):
    with pytest.raises(type_check.InvalidType, match='Swish'):
        F.swish(x, beta)
