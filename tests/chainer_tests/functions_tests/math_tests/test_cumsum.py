import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*(
    testing.product({
        'shape': [(3, 4, 2)],
        'axis': [None, 0, 1, -1],
        'dtype': [numpy.float32],
    })
    + testing.product({
        'shape': [(5,), (0, 3), ()],
        'axis': [None],
        'dtype': [numpy.float16, numpy.float64],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCumsum(testing.FunctionTestCase):

    # float16: running sums accumulate rounding along the axis
    tolerances = {numpy.float16: (5e-3,)}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.cumsum(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.cumsum(inputs[0], axis=self.axis).astype(self.dtype),


def test_gradient_is_reverse_cumsum():
    x = chainer.Variable(numpy.zeros((2, 3), numpy.float32))
    y = F.cumsum(x, axis=1)
    y.grad = numpy.array([[1, 2, 3], [0, 0, 1]], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[6, 5, 3], [1, 1, 1]])


def test_invalid():
    with pytest.raises(type_check.InvalidType, match='Cumsum'):
        F.cumsum(numpy.ones((2, 3), numpy.int32))
    with pytest.raises(type_check.InvalidType, match='Cumsum'):
        F.cumsum(numpy.ones((2, 3), numpy.float32), axis=2)
    with pytest.raises(type_check.InvalidType, match='Cumsum'):
        F.cumsum(numpy.ones((2, 3), numpy.float32), axis=-3)
    with pytest.raises(TypeError, match='cumsum: axis must be None or an int'):
        F.cumsum(numpy.ones((2, 3), numpy.float32), axis=(0,))
