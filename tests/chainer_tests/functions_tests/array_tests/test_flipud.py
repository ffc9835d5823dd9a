import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3,), (3, 4), (2, 3, 4), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFlipud(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.flipud(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.flipud(inputs[0]).copy(),


def test_needs_one_dim():
    with pytest.raises(type_check.InvalidType, match='FlipUD'):
        F.flipud(numpy.zeros((), numpy.float32))
