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
class TestLGamma(testing.FunctionTestCase):

    check_forward_options = {'atol': 1e-6, 'rtol': 1e-5}
    check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
    check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
    # float16: the steep gamma-family functions keep ~3 digits
    tolerances = {numpy.float16: (3e-3, (1e-2, 5e-2), (3e-2, 1e-1))}

    def generate_inputs(self):
        return numpy.random.uniform(0.5, 3, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.lgamma(*inputs),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        return numpy.asarray(special.gammaln(x), self.dtype),


def test_integer_input():
    with pytest.raises(type_check.InvalidType, match='lgamma'):
        F.lgamma(numpy.ones(3, numpy.int32))


def test_label():
    assert F.lgamma(numpy.full(2, 1.5, numpy.float32)).creator.label == 'lgamma'


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match=r'lgamma.*pip install rechainer\[scipy\]'):
        F.lgamma(numpy.full(2, 1.5, numpy.float32))
