import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 3), 'repeats': 2, 'axis': None},
        {'shape': (2, 3), 'repeats': 3, 'axis': 1},
        {'shape': (2, 3), 'repeats': (1, 0, 2), 'axis': -1},
        {'shape': (2, 3), 'repeats': [2, 1], 'axis': 0},
        {'shape': (2, 3), 'repeats': (1, 0, 2, 0, 1, 3), 'axis': None},
        {'shape': (2, 3), 'repeats': 0, 'axis': 0},
        {'shape': (), 'repeats': 3, 'axis': None},
        {'shape': (0, 2), 'repeats': 2, 'axis': 1},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestRepeat(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.repeat(inputs[0], self.repeats, self.axis),

    def forward_expected(self, inputs):
        return numpy.repeat(inputs[0], self.repeats, self.axis),


@pytest.mark.parametrize('repeats, axis', [((1, 2), 1), ((1, 2), None), (2, 2), (2, -3)])
def test_invalid_for_input(repeats, axis):
    with pytest.raises(type_check.InvalidType, match='Repeat'):
        F.repeat(numpy.zeros((2, 3), numpy.float32), repeats, axis)


def test_invalid_arguments():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(TypeError):
        F.repeat(x, 1.5)
    with pytest.raises(ValueError):
        F.repeat(x, -1)
    with pytest.raises(TypeError):
        F.repeat(x, 2, axis=1.0)
