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
        {'shape': (2, 3), 'repeats': (2, 1), 'axis': 0},
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


# The error types are NumPy's, which Chainer let through.
@pytest.mark.parametrize('repeats, axis, error, match', [
    ((1, 2), 1, ValueError, r'one per element along the axis \(x.shape\[1\] = 3\)'),
    ((1, 2), None, ValueError, r'one per element along the axis \(x.size = 6\)'),
    (2, 2, numpy.exceptions.AxisError, 'axis 2 is out of range'),
    (2, -3, numpy.exceptions.AxisError, 'axis -3 is out of range'),
])
def test_invalid_for_input(repeats, axis, error, match):
    with pytest.raises(error, match=match):
        F.repeat(numpy.zeros((2, 3), numpy.float32), repeats, axis)


def test_list_repeats_are_refused():
    # Chainer 7.8.1 takes an int or a tuple of ints only
    with pytest.raises(TypeError, match='repeats'):
        F.repeat(numpy.zeros((2, 3), numpy.float32), [2, 1], 0)


@pytest.mark.parametrize('repeats, expected', [(True, 1), ((True,), 1), (False, 0)])
def test_bool_repeats_count_as_ints(repeats, expected):
    # As in Chainer.
    x = numpy.arange(3, dtype=numpy.float32)
    numpy.testing.assert_array_equal(F.repeat(x, repeats).array, numpy.repeat(x, expected))


def test_bool_axis_is_refused():
    with pytest.raises(TypeError, match='repeat: axis must be None or an int'):
        F.repeat(numpy.zeros(3, numpy.float32), 1, True)


def test_invalid_arguments():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(TypeError):
        F.repeat(x, 1.5)
    with pytest.raises(ValueError):
        F.repeat(x, -1)
    with pytest.raises(TypeError):
        F.repeat(x, 2, axis=1.0)
