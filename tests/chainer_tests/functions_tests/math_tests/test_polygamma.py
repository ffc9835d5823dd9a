import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

special = pytest.importorskip('scipy.special')


@testing.parameterize(*testing.product({
    'shapes': [((3, 2), (3, 2)), ((2,), (3, 2)), ((), ()), ((0, 2), (0, 2))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPolyGamma(testing.FunctionTestCase):

    check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
    check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
    # float16: the steep gamma-family functions keep ~3 digits
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (3e-2, 1e-1))}

    def setUp(self):
        # The order is an integer constant of the test, not a differentiated input.
        self.n = numpy.random.randint(0, 3, self.shapes[0]).astype(numpy.int32)

    def generate_inputs(self):
        return numpy.random.uniform(1, 3, self.shapes[1]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.polygamma(device.send(self.n), inputs[0]),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(special.polygamma(self.n, x), self.dtype),


def test_order_gets_no_gradient():
    n = chainer.Variable(numpy.array([0, 1], numpy.int32), requires_grad=False)
    x = chainer.Variable(numpy.array([1.5, 2.5], numpy.float64))
    F.sum(F.polygamma(n, x)).backward()
    assert n.grad is None
    numpy.testing.assert_allclose(x.grad, special.polygamma([1, 2], x.array))


def test_zero_order_is_digamma():
    x = numpy.array([0.7, 2.0], numpy.float32)
    numpy.testing.assert_allclose(
        F.polygamma(numpy.zeros(2, numpy.int32), x).array, F.digamma(x).array, rtol=1e-6)


def test_invalid():
    x = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='polygamma'):
        F.polygamma(numpy.ones(3, numpy.float32), x)
    with pytest.raises(type_check.InvalidType, match='polygamma'):
        F.polygamma(numpy.ones(3, numpy.int32), numpy.ones(3, numpy.int32))
    with pytest.raises(type_check.InvalidType, match='polygamma'):
        F.polygamma(numpy.ones(2, numpy.int32), x)


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match=r'pip install rechainer\[scipy\]'):
        F.polygamma(numpy.ones(2, numpy.int32), numpy.ones(2, numpy.float32))
