import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shapes': [((3, 2), (3, 2)), ((3, 2), (2,)), ((), ()), ((0, 2), (2,))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFmod(testing.FunctionTestCase):

    # float16: x - trunc(x / y) * y loses digits to cancellation
    tolerances = {numpy.float16: (5e-3,)}

    def generate_inputs(self):
        x_shape, d_shape = self.shapes
        d = numpy.random.uniform(1, 2, d_shape) * numpy.random.choice([-1, 1], d_shape)
        # x / d = (integer + fraction away from 0 and 1): off the jumps of fix(x / d).
        q = numpy.random.randint(-3, 4, x_shape) + numpy.random.uniform(0.2, 0.8, x_shape)
        x = q * d
        return x.astype(self.dtype), d.astype(self.dtype)

    def forward(self, inputs, device):
        return F.fmod(*inputs),

    def forward_expected(self, inputs):
        x, d = inputs
        return numpy.asarray(numpy.fmod(x.astype(numpy.float64), d), self.dtype),


def test_invalid():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='fmod'):
        F.fmod(x, numpy.ones((2, 3), numpy.float64))
    with pytest.raises(type_check.InvalidType, match='fmod'):
        F.fmod(x, numpy.ones((3, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='fmod'):
        F.fmod(numpy.ones(3, numpy.int32), numpy.ones(3, numpy.int32))
