import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (3, 2), 'axis': 0},
        {'shape': (3, 2), 'axis': 2},
        {'shape': (3, 2), 'axis': -1},
        {'shape': (3, 2), 'axis': -3},
        {'shape': (), 'axis': 0},
        {'shape': (0, 2), 'axis': 1},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestExpandDims(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.expand_dims(inputs[0], self.axis),

    def forward_expected(self, inputs):
        return numpy.expand_dims(inputs[0], self.axis),


@pytest.mark.parametrize('axis', [3, -4])
def test_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType, match='ExpandDims'):
        F.expand_dims(numpy.zeros((3, 2), numpy.float32), axis)


def test_axis_must_be_int():
    with pytest.raises(TypeError):
        F.expand_dims(numpy.zeros((3, 2), numpy.float32), (0,))
