import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (2, 3, 4), (3, 0)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFliplr(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.fliplr(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.fliplr(inputs[0]).copy(),


@pytest.mark.parametrize('shape', [(3,), ()])
def test_needs_two_dims(shape):
    with pytest.raises(type_check.InvalidType, match='FlipLR'):
        F.fliplr(numpy.zeros(shape, numpy.float32))
