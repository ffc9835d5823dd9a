import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shapes': [((3, 2), (3, 2)), ((3, 2), (2,)), ((1, 2), (3, 1)), ((), ()), ((0, 2), (2,))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMinimum(testing.FunctionTestCase):

    def generate_inputs(self):
        s1, s2 = self.shapes
        x1 = numpy.random.uniform(-1, 1, s1)
        # Both inputs on a grid of step 0.2 shifted by 0.1: never closer than 0.1.
        x1 = numpy.round(x1 * 5) / 5
        x2 = numpy.round(numpy.random.uniform(-1, 1, s2) * 5) / 5 + 0.1
        return x1.astype(self.dtype), x2.astype(self.dtype)

    def forward(self, inputs, device):
        return F.minimum(*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.minimum(*inputs), self.dtype),


def test_ties_go_to_first_input():
    x1 = chainer.Variable(numpy.array([1., 2.], numpy.float32))
    x2 = chainer.Variable(numpy.array([1., 3.], numpy.float32))
    F.sum(F.minimum(x1, x2)).backward()
    numpy.testing.assert_array_equal(x1.grad, [1, 1])
    numpy.testing.assert_array_equal(x2.grad, [0, 0])


def test_invalid():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='Minimum'):
        F.minimum(x, x.astype(numpy.float64))
    with pytest.raises(type_check.InvalidType, match='Minimum'):
        F.minimum(x, numpy.zeros((2,), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='Minimum'):
        F.minimum(numpy.zeros(2, numpy.int32), numpy.zeros(2, numpy.int32))
