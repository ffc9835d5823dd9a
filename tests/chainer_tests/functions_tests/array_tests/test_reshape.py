import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'in_shape': (4, 3, 2), 'out_shape': (2, 2, 6)},
        {'in_shape': (4, 3, 2), 'out_shape': (-1, 3)},
        {'in_shape': (4, 3, 2), 'out_shape': (24,)},
        {'in_shape': (), 'out_shape': (1, 1)},
        {'in_shape': (1,), 'out_shape': ()},
        {'in_shape': (0, 3), 'out_shape': (3, 0)},
        {'in_shape': (0, 3), 'out_shape': (3, -1)},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestReshape(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.in_shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.reshape(inputs[0], self.out_shape),

    def forward_expected(self, inputs):
        return inputs[0].reshape(self.out_shape),


def test_same_shape_keeps_the_variable():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.reshape(x, (2, 3)) is x


def test_int_shape_and_variable_method():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.reshape(x, 6).shape == (6,)
    assert x.reshape(3, 2).shape == (3, 2)
    assert x.reshape((-1,)).shape == (6,)


@pytest.mark.parametrize('shape', [(4, -1), (5,)])
def test_size_mismatch(shape):
    with pytest.raises(type_check.InvalidType, match=r'reshape: x of shape \(2, 3\)'):
        F.reshape(numpy.zeros((2, 3), numpy.float32), shape)


@pytest.mark.parametrize('shape', [(-1, -1), (2, -3), (0, -1)])
def test_invalid_shape(shape):
    with pytest.raises(ValueError):
        F.reshape(numpy.zeros((2, 3), numpy.float32), shape)
