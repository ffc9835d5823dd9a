import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (3, 4), 'offset': 0, 'axis1': 0, 'axis2': 1},
        {'shape': (3, 4), 'offset': 1, 'axis1': 0, 'axis2': 1},
        {'shape': (3, 4), 'offset': -2, 'axis1': 1, 'axis2': 0},
        {'shape': (2, 3, 4), 'offset': 0, 'axis1': -1, 'axis2': 0},
        {'shape': (2, 3, 4), 'offset': 1, 'axis1': 1, 'axis2': 2},
        {'shape': (2, 2), 'offset': 5, 'axis1': 0, 'axis2': 1},  # empty diagonal
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDiagonal(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.diagonal(inputs[0], self.offset, self.axis1, self.axis2),

    def forward_expected(self, inputs):
        return numpy.diagonal(inputs[0], self.offset, self.axis1, self.axis2).copy(),


def test_defaults():
    x = numpy.arange(9, dtype=numpy.float32).reshape(3, 3)
    numpy.testing.assert_array_equal(F.diagonal(x).array, [0, 4, 8])


@pytest.mark.parametrize('shape, axis1, axis2, error', [
    ((3,), 0, 1, type_check.InvalidType),       # too few dims
    ((3, 3), 0, 2, type_check.InvalidType),     # axis out of range
    ((3, 3), 0, -2, ValueError),                # the same axis twice (NumPy's error in Chainer)
])
def test_invalid(shape, axis1, axis2, error):
    with pytest.raises(error, match='iagonal'):
        F.diagonal(numpy.zeros(shape, numpy.float32), 0, axis1, axis2)
