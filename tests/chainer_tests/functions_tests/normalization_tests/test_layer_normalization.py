import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 5), (1, 4), (6, 1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'eps': [1e-5, 1e-1],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLayerNormalization(testing.FunctionTestCase):

    # float16: mean and variance are float16 sums; the gradient subtracts them
    tolerances = {numpy.float16: (1e-2, 2e-2, 5e-2)}

    def setUp(self):
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        gamma = numpy.random.uniform(-1, 1, self.shape[1]).astype(self.dtype)
        beta = numpy.random.uniform(-1, 1, self.shape[1]).astype(self.dtype)
        return x, gamma, beta

    def forward(self, inputs, device):
        return F.layer_normalization(*inputs, eps=self.eps),

    def forward_expected(self, inputs):
        x, gamma, beta = (a.astype(numpy.float64) for a in inputs)
        mean = x.mean(axis=1, keepdims=True)
        y = (x - mean) / numpy.sqrt(x.var(axis=1, keepdims=True) + self.eps) * gamma + beta
        return y.astype(self.dtype),


_G = numpy.ones(4, numpy.float32)


@pytest.mark.parametrize('args', [
    (numpy.ones((2, 4, 3), numpy.float32), _G, _G),
    (numpy.ones((2, 4), numpy.float32), numpy.ones(3, numpy.float32), _G),
    (numpy.ones((2, 4), numpy.float32), _G.astype(numpy.float64), _G.astype(numpy.float64)),
    (numpy.ones((2, 4), numpy.int32), _G, _G),
])
def test_invalid_inputs(args):
    with pytest.raises(type_check.InvalidType, match='LayerNormalization'):
        F.layer_normalization(*args)
