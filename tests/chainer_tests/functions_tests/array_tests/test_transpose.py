import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 3, 4), 'axes': None},
        {'shape': (2, 3, 4), 'axes': (1, 0, 2)},
        {'shape': (2, 3, 4), 'axes': (-1, 0, 1)},
        {'shape': (2, 3), 'axes': [1, 0]},
        {'shape': (), 'axes': None},
        {'shape': (0, 3), 'axes': (1, 0)},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTranspose(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.transpose(inputs[0], self.axes),

    def forward_expected(self, inputs):
        return inputs[0].transpose(self.axes).copy(),


def test_variable_methods():
    x = chainer.Variable(numpy.zeros((2, 3, 4), numpy.float32))
    assert x.T.shape == (4, 3, 2)
    assert x.transpose(2, 0, 1).shape == (4, 2, 3)


@pytest.mark.parametrize('axes, error, match', [
    ((1, 0), ValueError, 'axes must name each of the 3 axes'),
    ((0, 1, 3), numpy.exceptions.AxisError, 'axes entry 3 is out of range'),
    ((0, 1, 1), ValueError, 'axes must not repeat'),
    ((0, 1.5, 2), TypeError, 'axes must be None or a sequence of int'),
])
def test_invalid_axes(axes, error, match):
    # The types are NumPy's, which Chainer let through.
    with pytest.raises(error, match='transpose: ' + match):
        F.transpose(numpy.zeros((2, 3, 4), numpy.float32), axes)
