import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

_DTYPES = [numpy.float16, numpy.float32, numpy.float64]


@testing.parameterize(*testing.product_dict(
    [
        {'shapes': [(3, 1, 5), (1, 2, 5), (5,)]},
        {'shapes': [(2, 3), (2, 3)]},
        {'shapes': [(), (2,)]},
        {'shapes': [(0, 1), (1, 4)]},
    ],
    testing.product({'dtype': _DTYPES}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBroadcast(testing.FunctionTestCase):

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return F.broadcast(*inputs)

    def forward_expected(self, inputs):
        return tuple(numpy.broadcast_arrays(*inputs))


@testing.parameterize(*testing.product_dict(
    [
        {'in_shape': (3, 1, 5), 'out_shape': (2, 3, 4, 5)},
        {'in_shape': (), 'out_shape': (2, 3)},
        {'in_shape': (1,), 'out_shape': (0,)},
    ],
    testing.product({'dtype': _DTYPES}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBroadcastTo(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.in_shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.broadcast_to(inputs[0], self.out_shape),

    def forward_expected(self, inputs):
        return numpy.broadcast_to(inputs[0], self.out_shape).copy(),


def test_broadcast_single_input_is_returned_as_variable():
    x = numpy.zeros((2, 3), numpy.float32)
    y = F.broadcast(x)
    assert isinstance(y, chainer.Variable)
    assert y.array is x


def test_broadcast_to_same_shape_keeps_the_variable():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    assert F.broadcast_to(x, (2, 3)) is x


def test_broadcast_incompatible_shapes():
    with pytest.raises(type_check.InvalidType, match='Broadcast'):
        F.broadcast(numpy.zeros((2, 3), 'f'), numpy.zeros((3, 2), 'f'))


@pytest.mark.parametrize('in_shape, out_shape', [((3,), (2, 4)), ((2, 3), (3,))])
def test_broadcast_to_invalid_shape(in_shape, out_shape):
    with pytest.raises(type_check.InvalidType, match='BroadcastTo'):
        F.broadcast_to(numpy.zeros(in_shape, 'f'), out_shape)
