import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'c_shape': (3, 2), 'x_shape': (3, 2), 'y_shape': (3, 2)},
        {'c_shape': (3, 1), 'x_shape': (1, 2), 'y_shape': (3, 2)},   # broadcasting
        {'c_shape': (), 'x_shape': (), 'y_shape': ()},
        {'c_shape': (0, 3), 'x_shape': (0, 3), 'y_shape': (3,)},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestWhere(testing.FunctionTestCase):

    def generate_inputs(self):
        c = numpy.random.uniform(-1, 1, self.c_shape) > 0
        x = numpy.random.uniform(-1, 1, self.x_shape).astype(self.dtype)
        y = numpy.random.uniform(-1, 1, self.y_shape).astype(self.dtype)
        return c, x, y

    def forward(self, inputs, device):
        c, x, y = inputs
        return F.where(c, x, y),

    def forward_expected(self, inputs):
        c, x, y = inputs
        return numpy.asarray(numpy.where(c, x, y)),


def test_scalar_operand_takes_the_other_dtype():
    c = numpy.array([True, False])
    x = numpy.array([1, 2], numpy.float16)
    z = F.where(c, x, 0.5)
    assert z.dtype == numpy.float16
    numpy.testing.assert_array_equal(z.array, numpy.array([1, 0.5], numpy.float16))


def test_gradient_routes_by_condition():
    c = numpy.array([[True, False], [False, True]])
    x = chainer.Variable(numpy.ones((2, 2), numpy.float32))
    y = chainer.Variable(numpy.ones((2,), numpy.float32))
    F.sum(F.where(c, x, y)).backward()
    numpy.testing.assert_array_equal(x.grad, c.astype(numpy.float32))
    numpy.testing.assert_array_equal(y.grad, numpy.array([1, 1], numpy.float32))


@pytest.mark.parametrize('c, x, y', [
    (numpy.zeros((2,), numpy.int32), numpy.zeros((2,), 'f'), numpy.zeros((2,), 'f')),
    (numpy.zeros((2,), bool), numpy.zeros((2,), 'f'), numpy.zeros((2,), 'd')),
    (numpy.zeros((2,), bool), numpy.zeros((2,), 'f'), numpy.zeros((3,), 'f')),
])
def test_invalid_inputs(c, x, y):
    with pytest.raises(type_check.InvalidType, match='Where'):
        F.where(c, x, y)


@pytest.mark.parametrize('x, y, name', [
    (None, numpy.ones(2, 'f'), 'x'),
    (numpy.ones(2, 'f'), None, 'y'),
    ([1, 2], numpy.ones(2, 'f'), 'x'),
    (numpy.ones(2, 'f'), (1.0, 2.0), 'y'),
])
def test_none_and_sequences_are_refused(x, y, name):
    # None would become a NaN-filled object cast; a list is not an array.
    with pytest.raises(TypeError, match=f'where: {name} must be'):
        F.where(numpy.array([True, False]), x, y)


def test_condition_must_be_an_array():
    with pytest.raises(type_check.InvalidType, match='where: condition'):
        F.where([True, False], numpy.ones(2, 'f'), numpy.zeros(2, 'f'))
