import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (4,)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestAbsoluteError(testing.FunctionTestCase):

    dodge_nondifferentiable = True

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, self.shape).astype(self.dtype))

    def forward(self, inputs, device):
        return F.absolute_error(*inputs),

    def forward_expected(self, inputs):
        x0, x1 = inputs
        return numpy.asarray(abs(x0 - x1), self.dtype),


def test_invalid():
    with pytest.raises(type_check.InvalidType, match='AbsoluteError'):
        F.absolute_error(numpy.zeros((2, 3), 'f'), numpy.zeros((3,), 'f'))
