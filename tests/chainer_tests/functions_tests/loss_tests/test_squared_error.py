import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 2), (4,)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'name': ['squared_error', 'squared_difference'],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestSquaredError(testing.FunctionTestCase):

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, self.shape).astype(self.dtype))

    def forward(self, inputs, device):
        f = F.squared_error if self.name == 'squared_error' else F.squared_difference
        return f(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = inputs
        return numpy.asarray((x0 - x1) ** 2, self.dtype),


def test_module_path_and_class():
    from chainer.functions.loss import squared_error
    assert F.squared_error is squared_error.squared_error
    assert F.squared_difference is squared_error.squared_difference
    y = F.squared_difference(numpy.ones(2, 'f'), numpy.zeros(2, 'f'))
    assert type(y.creator).__name__ == 'SquaredError'


@pytest.mark.parametrize('x0, x1', [
    (numpy.zeros((2, 3), 'f'), numpy.zeros((2, 3), 'e')),   # dtypes differ
    (numpy.zeros((2, 3), 'f'), numpy.zeros((3,), 'f')),     # shapes differ (no broadcasting)
    (numpy.zeros(2, 'i'), numpy.zeros(2, 'i')),             # not float
])
def test_invalid(x0, x1):
    with pytest.raises(type_check.InvalidType, match='SquaredError'):
        F.squared_error(x0, x1)
