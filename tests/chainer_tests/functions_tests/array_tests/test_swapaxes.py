import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 3, 4), 'axis1': 0, 'axis2': 2},
        {'shape': (2, 3, 4), 'axis1': -1, 'axis2': 1},
        {'shape': (2, 3), 'axis1': 1, 'axis2': 1},
        {'shape': (0, 3), 'axis1': 0, 'axis2': 1},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSwapaxes(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.swapaxes(inputs[0], self.axis1, self.axis2),

    def forward_expected(self, inputs):
        return numpy.swapaxes(inputs[0], self.axis1, self.axis2).copy(),


@pytest.mark.parametrize('axis1, axis2', [(0, 2), (-3, 0)])
def test_out_of_range(axis1, axis2):
    # NumPy's AxisError (a ValueError and an IndexError), as in Chainer.
    with pytest.raises(numpy.exceptions.AxisError, match='swapaxes: axis'):
        F.swapaxes(numpy.zeros((2, 3), numpy.float32), axis1, axis2)
