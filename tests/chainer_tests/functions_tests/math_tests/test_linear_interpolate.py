import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shapes': [((3, 2), (3, 2), (3, 2)), ((2,), (3, 2), (1, 2)), ((), (), ()),
               ((0, 2), (0, 2), (0, 2))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLinearInterpolate(testing.FunctionTestCase):

    def generate_inputs(self):
        sp, sx, sy = self.shapes
        return (numpy.random.uniform(0, 1, sp).astype(self.dtype),
                numpy.random.uniform(-1, 1, sx).astype(self.dtype),
                numpy.random.uniform(-1, 1, sy).astype(self.dtype))

    def forward(self, inputs, device):
        return F.linear_interpolate(*inputs),

    def forward_expected(self, inputs):
        p, x, y = [a.astype(numpy.float64) for a in inputs]
        return numpy.asarray(p * x + (1 - p) * y, self.dtype),


def test_invalid():
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='LinearInterpolate'):
        F.linear_interpolate(a, a, a.astype(numpy.float64))
    with pytest.raises(type_check.InvalidType, match='LinearInterpolate'):
        F.linear_interpolate(a, a, numpy.zeros((3, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='LinearInterpolate'):
        i = numpy.zeros(2, numpy.int32)
        F.linear_interpolate(i, i, i)
