import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (3, 4), 'axis': 0},
        {'shape': (3, 4), 'axis': 1},
        {'shape': (2, 3, 4), 'axis': -1},
        {'shape': (2, 3, 4), 'axis': -3},
        {'shape': (0, 3), 'axis': 1},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFlip(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.flip(inputs[0], self.axis),

    def forward_expected(self, inputs):
        return numpy.flip(inputs[0], self.axis).copy(),


@pytest.mark.parametrize('shape, axis', [((), 0), ((3, 4), 2), ((3, 4), -3)])
def test_invalid(shape, axis):
    with pytest.raises(type_check.InvalidType, match='Flip'):
        F.flip(numpy.zeros(shape, numpy.float32), axis)


def test_axis_must_be_int():
    with pytest.raises(TypeError):
        F.flip(numpy.zeros((3, 4), numpy.float32), None)


def test_module_flip_helper_matches_numpy():
    from chainer.functions.array.flip import _flip
    x = numpy.arange(24).reshape(2, 3, 4)
    for axis in (0, 1, 2, -1, -3):
        y = _flip(x, axis)
        numpy.testing.assert_array_equal(y, numpy.flip(x, axis))
        assert numpy.shares_memory(y, x)
