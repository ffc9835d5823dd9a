import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def space2depth_reference(x, r):
    n, c, h, w = x.shape
    out = numpy.empty((n, c * r * r, h // r, w // r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c):
                out[:, (i * r + j) * c + k] = x[:, k, i::r, j::r]
    return out


@testing.parameterize(*testing.product({
    'shape_r': [((2, 3, 4, 6), 2), ((1, 1, 3, 6), 3), ((0, 1, 2, 2), 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSpace2Depth(testing.FunctionTestCase):

    def generate_inputs(self):
        shape, _ = self.shape_r
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.space2depth(inputs[0], self.shape_r[1]),

    def forward_expected(self, inputs):
        return space2depth_reference(inputs[0], self.shape_r[1]),


def test_documented_example():
    x = numpy.arange(24, dtype=numpy.float32).reshape(1, 1, 4, 6)
    y = F.space2depth(x, 2)
    numpy.testing.assert_array_equal(y.array[0, 0], [[0, 2, 4], [12, 14, 16]])
    numpy.testing.assert_array_equal(y.array[0, 3], [[7, 9, 11], [19, 21, 23]])


def test_inverse_of_depth2space():
    x = numpy.random.uniform(-1, 1, (2, 8, 3, 5)).astype(numpy.float32)
    numpy.testing.assert_array_equal(F.space2depth(F.depth2space(x, 2), 2).array, x)


@pytest.mark.parametrize('x', [
    numpy.zeros((1, 1, 4, 4), numpy.int32),
    numpy.zeros((1, 4, 4), numpy.float32),
    numpy.zeros((1, 1, 3, 4), numpy.float32),
])
def test_invalid(x):
    with pytest.raises(type_check.InvalidType, match='Space2Depth'):
        F.space2depth(x, 2)
