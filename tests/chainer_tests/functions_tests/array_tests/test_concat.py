import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shapes': [(2, 7, 3), (2, 2, 3), (2, 0, 3)], 'axis': 1},
        {'shapes': [(2, 3), (4, 3)], 'axis': 0},
        {'shapes': [(2, 3), (2, 1)], 'axis': -1},
        {'shapes': [(4,)], 'axis': 0},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestConcat(testing.FunctionTestCase):

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return F.concat(inputs, axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.concatenate(inputs, axis=self.axis),


def test_default_axis_is_one():
    y = F.concat([numpy.zeros((2, 3), 'f'), numpy.zeros((2, 4), 'f')])
    assert y.shape == (2, 7)


def test_gradient_of_one_piece_only():
    a = chainer.Variable(numpy.ones((2, 2), numpy.float32))
    b = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = F.concat((a, b))
    F.sum(y[:, :2] * 3).backward()
    numpy.testing.assert_array_equal(a.grad, numpy.full((2, 2), 3, numpy.float32))
    numpy.testing.assert_array_equal(b.grad, numpy.zeros((2, 3), numpy.float32))


@pytest.mark.parametrize('shapes, dtypes, axis', [
    ([(2, 3), (3, 3)], 'ff', 1),   # other dims differ
    ([(2, 3), (2, 3)], 'fd', 1),   # dtypes differ
    ([(2, 3), (2, 3, 1)], 'ff', 1),  # ndims differ
    ([(2, 3), (2, 3)], 'ff', 2),   # axis out of range
    ([(2, 3), (2, 3)], 'ff', -3),
])
def test_invalid(shapes, dtypes, axis):
    xs = [numpy.zeros(s, d) for s, d in zip(shapes, dtypes)]
    with pytest.raises(type_check.InvalidType, match='Concat'):
        F.concat(xs, axis=axis)


def test_axis_must_be_int():
    with pytest.raises(TypeError):
        F.concat([numpy.zeros((2,), 'f')], axis=1.0)


def test_double_backprop_through_one_piece():
    a = chainer.Variable(numpy.ones((2, 2), numpy.float32))
    b = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    gy = chainer.Variable(numpy.ones((2, 5), numpy.float32))
    ga, gb = chainer.grad([F.concat((a, b))], [a, b], grad_outputs=[gy],
                          enable_double_backprop=True)
    F.sum(ga * 2).backward()  # gb is unused: ConcatGrad gets a None there
    expected = numpy.array([[2, 2, 0, 0, 0]] * 2, numpy.float32)
    numpy.testing.assert_array_equal(gy.grad, expected)
