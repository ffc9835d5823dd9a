import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _logsumexp(x, axis):
    x = x.astype(numpy.float64)
    m = x.max(axis=axis, keepdims=True)
    y = numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True)) + m
    return numpy.squeeze(y, axis=axis) if axis is not None else y.reshape(())


@testing.parameterize(*(
    testing.product({
        'shape': [(3, 4, 2)],
        'axis': [None, 0, -1, (0, 2)],
        'dtype': [numpy.float32],
    })
    + testing.product({
        'shape': [(3, 4), ()],
        'axis': [None],
        'dtype': [numpy.float16, numpy.float64],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLogSumExp(testing.FunctionTestCase):

    # float16: log of a float16 sum of exponentials
    tolerances = {numpy.float16: (5e-3,)}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.logsumexp(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.asarray(_logsumexp(inputs[0], self.axis), self.dtype),


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_no_overflow(dtype):
    big = {numpy.float16: 6e4, numpy.float32: 1e38, numpy.float64: 1e308}[dtype]
    x = numpy.array([[big, big], [-big, -big]], dtype)
    y = F.logsumexp(x, axis=1)
    assert y.dtype == dtype
    assert numpy.isfinite(y.array).all()
    numpy.testing.assert_allclose(y.array.astype(numpy.float64) / big, [1, -1], rtol=1e-3)


def test_gradient_is_softmax_and_stays_finite():
    x = chainer.Variable(numpy.array([[1000., 1000.], [0., -1000.]], numpy.float32))
    F.sum(F.logsumexp(x, axis=1)).backward()
    # float32 holds y = 1000.69 to about 6e-5, which bounds the accuracy here.
    numpy.testing.assert_allclose(x.grad, [[0.5, 0.5], [1, 0]], atol=1e-4)


def test_infinite_and_empty():
    x = numpy.array([[-numpy.inf, -numpy.inf], [numpy.inf, 0]], numpy.float32)
    numpy.testing.assert_array_equal(F.logsumexp(x, axis=1).array, [-numpy.inf, numpy.inf])
    y = F.logsumexp(numpy.zeros((0, 3), numpy.float32), axis=0)
    numpy.testing.assert_array_equal(y.array, [-numpy.inf] * 3)


def test_invalid():
    with pytest.raises(type_check.InvalidType, match='LogSumExp'):
        F.logsumexp(numpy.ones((2, 3), numpy.int32))
    with pytest.raises(type_check.InvalidType, match='LogSumExp'):
        F.logsumexp(numpy.ones((2, 3), numpy.float32), axis=(0, 2))
    with pytest.raises(ValueError):
        F.logsumexp(numpy.ones((2, 3), numpy.float32), axis=(0, 0))
