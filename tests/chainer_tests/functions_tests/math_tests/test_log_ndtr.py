import sys

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

special = pytest.importorskip('scipy.special')


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLogNdtr(testing.FunctionTestCase):

    check_forward_options = {'atol': 1e-6, 'rtol': 1e-5}
    check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
    check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
    # float16: the error-function family keeps ~3 digits; its derivatives are steep in the tails
    tolerances = {numpy.float16: (3e-3, (1e-2, 5e-2), (3e-2, 1e-1))}

    def generate_inputs(self):
        return numpy.random.uniform(-3, 3, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.log_ndtr(*inputs),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(special.log_ndtr(x), self.dtype),


def test_integer_input():
    with pytest.raises(type_check.InvalidType, match='log_ndtr'):
        F.log_ndtr(numpy.ones(3, numpy.int32))


def test_label():
    assert F.log_ndtr(numpy.full(2, 0.5, numpy.float32)).creator.label == 'log_ndtr'


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match=r'log_ndtr.*pip install rechainer\[scipy\]'):
        F.log_ndtr(numpy.full(2, 0.5, numpy.float32))


def test_gradient_in_far_left_tail():
    # pdf / cdf underflows to 0 / 0 there; the gradient tends to -x.
    x = chainer.Variable(numpy.array([-40., -1000.], numpy.float64))
    F.sum(F.log_ndtr(x)).backward()
    numpy.testing.assert_allclose(x.grad, -x.array, rtol=1e-3)
