import sys

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

special = pytest.importorskip('scipy.special')


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestNdtr(testing.FunctionTestCase):

    check_forward_options = {'atol': 1e-6, 'rtol': 1e-5}
    check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
    check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
    # float16: the error-function family keeps ~3 digits; its derivatives are steep in the tails
    tolerances = {numpy.float16: (1e-3, (1e-2, 5e-2), (3e-2, 1e-1))}

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.ndtr(*inputs),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(special.ndtr(x), self.dtype),


def test_integer_input():
    with pytest.raises(type_check.InvalidType, match='ndtr'):
        F.ndtr(numpy.ones(3, numpy.int32))


def test_label():
    assert F.ndtr(numpy.full(2, 0.5, numpy.float32)).creator.label == 'ndtr'


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match=r'ndtr.*pip install rechainer\[scipy\]'):
        F.ndtr(numpy.full(2, 0.5, numpy.float32))
