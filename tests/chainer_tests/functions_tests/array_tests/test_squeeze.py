import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (1, 3, 1, 2), 'axis': None},
        {'shape': (1, 3, 1, 2), 'axis': 0},
        {'shape': (1, 3, 1, 2), 'axis': -2},
        {'shape': (1, 3, 1, 2), 'axis': (0, 2)},
        {'shape': (1, 1), 'axis': None},
        {'shape': (), 'axis': None},
        {'shape': (0, 1), 'axis': 1},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSqueeze(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.squeeze(inputs[0], self.axis),

    def forward_expected(self, inputs):
        return numpy.squeeze(inputs[0], self.axis).copy(),


@pytest.mark.parametrize('axis', [4, -5, (0, 4)])
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType, match='squeeze: axis'):
        F.squeeze(numpy.zeros((1, 3, 1, 2), numpy.float32), axis)


@pytest.mark.parametrize('axis', [1, (0, 1)])
def test_axis_of_size_other_than_one(axis):
    # ValueError, as in Chainer (NumPy's error for the same call).
    with pytest.raises(ValueError, match='axis 1 of x has size 3'):
        F.squeeze(numpy.zeros((1, 3, 1, 2), numpy.float32), axis)


def test_axis_type():
    with pytest.raises(TypeError):
        F.squeeze(numpy.zeros((1, 3), numpy.float32), [0])
