import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _log_softmax(x, axis):
    x = x.astype(numpy.float64)
    if x.size == 0:
        return x
    m = x.max(axis=axis, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True))


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
class TestLogSoftmax(testing.FunctionTestCase):

    # float16: log of a float16 sum of exponentials
    tolerances = {numpy.float16: (5e-3, None, (2e-2, 5e-2))}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.log_softmax(*inputs, axis=self.axis),

    def forward_expected(self, inputs):
        return _log_softmax(inputs[0], self.axis).astype(self.dtype),


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_large_logits_are_stable(dtype):
    x = numpy.array([[1e4, 0, -1e4]], dtype)
    with numpy.errstate(over='raise', invalid='raise'):
        y = F.log_softmax(x).array
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y, [[0, -1e4, -2e4]], rtol=1e-3)


def test_large_logits_gradients_are_finite():
    x = chainer.Variable(numpy.array([[1e4, 0, -1e4]], numpy.float32))
    y = F.log_softmax(x)
    gx, = chainer.grad([y], [x], [chainer.Variable(numpy.ones((1, 3), numpy.float32))],
                       enable_double_backprop=True)
    ggx, = chainer.grad([gx], [x], [chainer.Variable(numpy.ones((1, 3), numpy.float32))])
    assert numpy.isfinite(gx.array).all() and numpy.isfinite(ggx.array).all()
    numpy.testing.assert_allclose(gx.array, [[-2, 1, 1]], atol=1e-6)


def test_default_axis_is_1():
    x = numpy.random.uniform(-1, 1, (2, 3, 4)).astype(numpy.float32)
    numpy.testing.assert_allclose(F.log_softmax(x).array, _log_softmax(x, 1), rtol=1e-5)


@pytest.mark.parametrize('x, axis', [
    (numpy.ones((2, 3), numpy.int32), 1),
    (numpy.ones((2, 3), numpy.float32), 2),
    (numpy.ones((3,), numpy.float32), 1),
])
def test_invalid_inputs(x, axis):
    with pytest.raises(type_check.InvalidType, match='LogSoftmax'):
        F.log_softmax(x, axis=axis)
