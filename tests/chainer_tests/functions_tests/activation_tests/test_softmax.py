import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _softmax(x, axis):
    x = x.astype(numpy.float64)
    if x.size == 0:
        return x
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 3), 'axis': 1},
        {'shape': (2, 3), 'axis': 0},
        {'shape': (2, 3, 4), 'axis': 2},
        {'shape': (2, 3, 4), 'axis': -2},
        {'shape': (4,), 'axis': 0},
        {'shape': (0, 3), 'axis': 1},
        {'shape': (2, 0), 'axis': 1},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSoftmax(testing.FunctionTestCase):

    # float16: the second derivative sums products of rounded probabilities
    tolerances = {numpy.float16: (None, None, (2e-2, 5e-2))}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.softmax(*inputs, axis=self.axis),

    def forward_expected(self, inputs):
        return _softmax(inputs[0], self.axis).astype(self.dtype),


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_large_logits_are_stable(dtype):
    x = numpy.array([[1e4, 0, -1e4], [1e4, 1e4, -1e4]], dtype)
    with numpy.errstate(over='raise', invalid='raise'):
        y = F.softmax(x).array
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y, [[1, 0, 0], [0.5, 0.5, 0]])


def test_default_axis_is_1():
    x = numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)
    numpy.testing.assert_allclose(F.softmax(x).array, _softmax(x, 1), rtol=1e-6)


@pytest.mark.parametrize('x, axis', [
    (numpy.ones((2, 3), numpy.int32), 1),
    (numpy.ones((2, 3), numpy.float32), 2),
    (numpy.ones((2, 3), numpy.float32), -3),
    (numpy.ones((3,), numpy.float32), 1),
])
def test_invalid_inputs(x, axis):
    with pytest.raises(type_check.InvalidType, match='Softmax'):
        F.softmax(x, axis=axis)


def test_invalid_axis_type():
    with pytest.raises(TypeError):
        F.softmax(numpy.ones((2, 3), numpy.float32), axis=(0, 1))
