import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 6, 3), 'ios': 3, 'axis': 1},
        {'shape': (2, 6, 3), 'ios': [2, 5], 'axis': 1},
        {'shape': (2, 6, 3), 'ios': numpy.array([1]), 'axis': -1},
        {'shape': (2, 6, 3), 'ios': [2, 2, 6], 'axis': 1},   # empty pieces
        {'shape': (4,), 'ios': 1, 'axis': 0},
        {'shape': (0, 3), 'ios': 3, 'axis': 1},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSplitAxis(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.split_axis(inputs[0], self.ios, self.axis)

    def forward_expected(self, inputs):
        return tuple(numpy.split(inputs[0], self.ios, self.axis))


@testing.parameterize(*testing.product({'dtype': [numpy.float32, numpy.float64]}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSplitAxisUnusedOutputs(testing.FunctionTestCase):
    # Only the middle piece is used: the others get no gradient (None).

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 5)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.split_axis(inputs[0], [1, 3], 1)[1],

    def forward_expected(self, inputs):
        return inputs[0][:, 1:3],


def test_force_tuple():
    x = numpy.zeros((2, 3), numpy.float32)
    ys = F.split_axis(x, 1, 0)
    assert isinstance(ys, tuple) and len(ys) == 1
    y = F.split_axis(x, 1, 0, force_tuple=False)
    assert isinstance(y, chainer.Variable) and y.shape == (2, 3)
    assert len(F.split_axis(x, 2, 0, force_tuple=False)) == 2


def test_outputs_are_views():
    x = numpy.arange(6, dtype=numpy.float32)
    a, _ = F.split_axis(x, 2, 0)
    assert a.array.base is not None


def test_invalid_indices_type():
    with pytest.raises(TypeError):
        F.split_axis(numpy.zeros((2, 3), 'f'), 1.5, 1)


def test_unsorted_indices_in_debug_mode():
    with chainer.using_config('debug', True), pytest.raises(ValueError):
        F.split_axis(numpy.zeros((2, 6), 'f'), [4, 2], 1)


@pytest.mark.parametrize('shape, ios, axis', [
    ((2, 6), 4, 1),        # 6 not divisible by 4
    ((2, 6), [1, 7], 1),   # index past the end
    ((2, 6), 2, 2),        # axis out of range
    ((2, 6), 2, -3),
    ((2, 6), 0, 1),        # no sections
])
def test_invalid_inputs(shape, ios, axis):
    with pytest.raises(type_check.InvalidType, match='SplitAxis'):
        F.split_axis(numpy.zeros(shape, 'f'), ios, axis)
