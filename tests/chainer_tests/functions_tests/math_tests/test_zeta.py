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
    'x': [2.0, 3.5],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestZeta(testing.FunctionTestCase):

    check_backward_options = {'atol': 1e-4, 'rtol': 1e-3}
    check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
    # float16: the steep gamma-family functions keep ~3 digits
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (3e-2, 1e-1))}

    def generate_inputs(self):
        return numpy.random.uniform(1, 3, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.zeta(self.x, inputs[0]),

    def forward_expected(self, inputs):
        q = inputs[0].astype(numpy.float64)
        return numpy.asarray(special.zeta(self.x, q), self.dtype),


def test_array_exponent():
    x = numpy.array([2., 3.], numpy.float32)
    q = numpy.array([1., 2.], numpy.float32)
    numpy.testing.assert_allclose(F.zeta(x, q).array, special.zeta(x, q), rtol=1e-6)


def test_integer_input():
    with pytest.raises(type_check.InvalidType, match='zeta'):
        F.zeta(2.0, numpy.ones(3, numpy.int32))


def test_without_scipy(monkeypatch):
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match=r'zeta.*pip install rechainer\[scipy\]'):
        F.zeta(2.0, numpy.ones(2, numpy.float32))
