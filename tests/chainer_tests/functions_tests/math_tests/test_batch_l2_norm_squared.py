import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(4, 3), (4, 3, 2), (1, 5), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBatchL2NormSquared(testing.FunctionTestCase):

    # float16: a sum of float16 squares
    tolerances = {numpy.float16: (5e-3,)}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.batch_l2_norm_squared(inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.square(x).sum(axis=tuple(range(1, x.ndim))).astype(self.dtype),


def test_invalid():
    with pytest.raises(type_check.InvalidType, match='BatchL2NormSquared'):
        F.batch_l2_norm_squared(numpy.ones(3, numpy.float32))
    with pytest.raises(type_check.InvalidType, match='BatchL2NormSquared'):
        F.batch_l2_norm_squared(numpy.ones((2, 3), numpy.int32))
