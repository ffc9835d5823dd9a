import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (3, 2), 'axis': 1},
        {'shape': (3, 2), 'axis': 0},
        {'shape': (2, 3, 4), 'axis': -1},
        {'shape': (4,), 'axis': 0},
        {'shape': (0, 3), 'axis': 1},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCReLU(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the kink at 0

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.crelu(*inputs, axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        y = numpy.concatenate((numpy.maximum(x, 0), numpy.maximum(-x, 0)), axis=self.axis)
        return y.astype(self.dtype),


def test_default_axis():
    x = numpy.array([[-1, 2]], numpy.float32)
    numpy.testing.assert_array_equal(F.crelu(x).array, [[0, 2, 1, 0]])


@pytest.mark.parametrize('x, axis', [
    (numpy.ones((2, 3), numpy.int32), 1),
    (numpy.ones((2, 3), numpy.float32), 2),
    (numpy.ones((2, 3), numpy.float32), -3),
])
def test_invalid_inputs(x, axis):
    with pytest.raises(type_check.InvalidType, match='CReLU'):
        F.crelu(x, axis=axis)


def test_invalid_axis_type():
    with pytest.raises(TypeError):
        F.crelu(numpy.ones((2, 3), numpy.float32), axis=1.0)
