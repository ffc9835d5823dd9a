import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer.functions import _checks


@testing.parameterize(*testing.product({
    'shape_axis': [((4, 3), 1), ((4, 3), 0), ((2, 3, 4), (1, 2)), ((2, 3, 4), -1), ((5,), 0),
                   ((3, 1), 1)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'eps': [1e-5, 1e-1],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestNormalize(testing.FunctionTestCase):

    # float16: the norm is a float16 sum of squares
    tolerances = {numpy.float16: (None, 1e-2, 5e-2)}

    def setUp(self):
        self.shape, self.axis = self.shape_axis
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        x[numpy.abs(x) < .1] = .5     # keep norms away from 0
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.normalize(inputs[0], eps=self.eps, axis=self.axis),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        norm = numpy.sqrt((x * x).sum(axis=self.axis, keepdims=True))
        return (x / (norm + self.eps)).astype(self.dtype),


def test_zero_vector_maps_to_zero_with_finite_gradient():
    x = chainer.Variable(numpy.array([[3., 4.], [0., 0.]], numpy.float32))
    y = F.normalize(x)
    numpy.testing.assert_allclose(y.array, [[3 / (5 + 1e-5), 4 / (5 + 1e-5)], [0, 0]])
    y.grad = numpy.ones((2, 2), numpy.float32)
    y.backward()
    assert numpy.isfinite(x.grad).all()
    numpy.testing.assert_allclose(x.grad[1], [1e5, 1e5], rtol=1e-5)


def test_invalid_inputs():
    with pytest.raises(type_check.InvalidType, match='NormalizeL2'):
        F.normalize(numpy.ones((2, 3), numpy.int32))
    with pytest.raises(_checks.AxisError, match='normalize'):
        F.normalize(numpy.ones((2, 3), numpy.float32), axis=2)
    with pytest.raises(TypeError, match='normalize'):
        F.normalize(numpy.ones((2, 3), numpy.float32), axis=1.0)
