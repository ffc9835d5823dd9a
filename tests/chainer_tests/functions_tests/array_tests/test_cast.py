import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing


@testing.parameterize(*testing.product_dict(
    [{'shape': (3, 4)}, {'shape': ()}, {'shape': (0, 2)}],
    [
        {'in_type': numpy.float16, 'out_type': numpy.float32},
        {'in_type': numpy.float32, 'out_type': numpy.float64},
        {'in_type': numpy.float64, 'out_type': numpy.float32},
        {'in_type': numpy.float32, 'out_type': numpy.float16},
    ],
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCast(testing.FunctionTestCase):

    # The numerical gradient goes through float32 rounding of the output, whatever the input
    # dtype, so float64 inputs need float32's tolerances here.
    check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
    check_double_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
    # float16 (in or out): rounding to float16 makes the numerical gradient coarse
    _coarse = {'eps': 2 ** -3, 'atol': 5e-2, 'rtol': 5e-2}
    tolerances = {numpy.float16: (None, _coarse, _coarse)}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.in_type),

    def forward(self, inputs, device):
        y = F.cast(inputs[0], self.out_type)
        assert y.dtype == self.out_type
        return y,

    def forward_expected(self, inputs):
        return inputs[0].astype(self.out_type),


def test_integer_input_gets_no_gradient():
    x = chainer.Variable(numpy.arange(3, dtype=numpy.int32))
    y = F.cast(x, numpy.float32)
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    assert x.grad is None


def test_float_to_int_and_back():
    y = F.cast(numpy.array([1.7, -2.2], numpy.float32), 'i')
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [1, -2])


def test_same_dtype_without_backprop_is_a_no_op():
    x = chainer.Variable(numpy.zeros(3, numpy.float32))
    with chainer.no_backprop_mode():
        assert F.cast(x, numpy.float32) is x
    y = F.cast(x, numpy.float32)
    assert y is not x and y.creator is not None


@pytest.mark.parametrize('typ', ['f', numpy.dtype('f'), numpy.float32])
def test_dtype_spellings(typ):
    y = F.cast(numpy.zeros(2, numpy.float64), typ)
    assert y.dtype == numpy.float32
