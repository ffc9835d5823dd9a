import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _expand(y, x_ndim, axis):
    return y.reshape((1,) * axis + y.shape + (1,) * (x_ndim - axis - y.ndim))


@testing.parameterize(*testing.product({
    'case': [((2, 3, 4), (3,), 1), ((2, 3, 4), (3, 4), 1), ((2, 3, 4), (4,), 2),
             ((2, 3, 4), (2,), 0), ((2, 3), (2, 3), 0), ((2, 3, 4), (1,), 1),
             ((0, 3), (3,), 1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBias(testing.FunctionTestCase):

    def generate_inputs(self):
        x_shape, y_shape, _ = self.case
        return (numpy.random.uniform(-1, 1, x_shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, y_shape).astype(self.dtype))

    def forward(self, inputs, device):
        return F.bias(*inputs, axis=self.case[2]),

    def forward_expected(self, inputs):
        x, y = inputs
        return numpy.asarray(x + _expand(y, x.ndim, self.case[2]), self.dtype),


def test_default_axis_is_one():
    x = numpy.zeros((2, 3, 4), numpy.float32)
    y = numpy.arange(3, dtype=numpy.float32)
    numpy.testing.assert_array_equal(F.bias(x, y).array, x + y[:, None])


@pytest.mark.parametrize('y_shape, axis', [((4,), 1), ((3, 5), 1), ((3,), 3)])
def test_shape_mismatch(y_shape, axis):
    x = numpy.zeros((2, 3, 4), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.bias(x, numpy.zeros(y_shape, numpy.float32), axis=axis)


def test_dtype_mismatch():
    # A Variable x meets y of another dtype in Add: refused, as in Chainer. (An array x is cast
    # to y's dtype by Variable.__radd__, also as in Chainer.)
    with pytest.raises(type_check.InvalidType):
        F.bias(chainer.Variable(numpy.zeros((2, 3), numpy.float32)),
               numpy.zeros(3, numpy.float64))
    assert F.bias(numpy.zeros((2, 3), numpy.float32),
                  numpy.zeros(3, numpy.float64)).dtype == numpy.float64
