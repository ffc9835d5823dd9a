import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'axis': 2, 'start': 0},
        {'axis': 0, 'start': 3},
        {'axis': 1, 'start': 2},
        {'axis': -1, 'start': -3},
        {'axis': 0, 'start': -1},
        {'axis': 2, 'start': 2},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestRollaxis(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.rollaxis(inputs[0], self.axis, self.start),

    def forward_expected(self, inputs):
        return numpy.rollaxis(inputs[0], self.axis, self.start).copy(),


def test_all_positions_match_numpy():
    x = numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)
    for axis in range(-3, 3):
        for start in range(-3, 4):
            numpy.testing.assert_array_equal(
                F.rollaxis(x, axis, start).array, numpy.rollaxis(x, axis, start))


@pytest.mark.parametrize('axis, start', [(3, 0), (-4, 0), (0, 4), (0, -4)])
def test_out_of_range(axis, start):
    with pytest.raises(type_check.InvalidType, match='rollaxis: (axis|start) -?[34] is out'):
        F.rollaxis(numpy.zeros((2, 3, 4), numpy.float32), axis, start)
