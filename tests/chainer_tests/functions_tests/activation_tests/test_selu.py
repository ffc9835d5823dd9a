import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

_ALPHA = 1.6732632423543772848170429916717
_SCALE = 1.0507009873554804934193349852946


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'params': [{}, {'alpha': 0.5, 'scale': 2.0}],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSELU(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the first derivative jumps at 0

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.selu(*inputs, **self.params),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        alpha = self.params.get('alpha', _ALPHA)
        scale = self.params.get('scale', _SCALE)
        return (scale * numpy.where(x > 0, x, alpha * numpy.expm1(x))).astype(self.dtype),


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='SELU'):
        F.selu(numpy.ones(3, numpy.int32))
