import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def depth2space_reference(x, r):
    # Written out by positions, independently of the reshape/transpose trick.
    n, c, h, w = x.shape
    out = numpy.empty((n, c // (r * r), h * r, w * r), x.dtype)
    for i in range(r):
        for j in range(r):
            for k in range(c // (r * r)):
                out[:, k, i::r, j::r] = x[:, (i * r + j) * (c // (r * r)) + k]
    return out


@testing.parameterize(*testing.product({
    'shape_r': [((2, 12, 3, 2), 2), ((1, 9, 2, 2), 3), ((1, 3, 2, 2), 1), ((0, 4, 1, 1), 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDepth2Space(testing.FunctionTestCase):

    def generate_inputs(self):
        shape, _ = self.shape_r
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.depth2space(inputs[0], self.shape_r[1]),

    def forward_expected(self, inputs):
        return depth2space_reference(inputs[0], self.shape_r[1]),


def test_documented_example():
    x = numpy.arange(24, dtype=numpy.float32).reshape(1, 4, 2, 3)
    y = F.depth2space(x, 2)
    expected = [[0, 6, 1, 7, 2, 8], [12, 18, 13, 19, 14, 20],
                [3, 9, 4, 10, 5, 11], [15, 21, 16, 22, 17, 23]]
    numpy.testing.assert_array_equal(y.array[0, 0], expected)


@pytest.mark.parametrize('x', [
    numpy.zeros((1, 4, 2, 2), numpy.int32),   # not float
    numpy.zeros((4, 2, 2), numpy.float32),    # not 4-D
    numpy.zeros((1, 6, 2, 2), numpy.float32),  # channels not divisible by r * r
])
def test_invalid(x):
    with pytest.raises(type_check.InvalidType, match='Depth2Space'):
        F.depth2space(x, 2)


def test_invalid_r():
    with pytest.raises(ValueError):
        F.depth2space(numpy.zeros((1, 4, 2, 2), numpy.float32), 0)
