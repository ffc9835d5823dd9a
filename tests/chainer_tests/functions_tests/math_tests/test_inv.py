import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _well_conditioned(shape, dtype):
    n = shape[-1]
    a = numpy.random.uniform(-0.5, 0.5, shape) + numpy.eye(n) * 2
    return a.astype(dtype)


@testing.parameterize(*testing.product({
    'batched': [False, True],
    'n': [1, 3],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestInv(testing.FunctionTestCase):

    tolerances = {
        # float16: the inverse amplifies float16 rounding by the condition number
        numpy.float16: (5e-3, (2e-2, 5e-2), (5e-2, 1e-1)),
        # float32: the gradients multiply two inverses, which amplifies rounding
        numpy.float32: (None, 1e-3, (1e-3, 1e-2)),
    }

    def generate_inputs(self):
        shape = ((2,) if self.batched else ()) + (self.n, self.n)
        return _well_conditioned(shape, self.dtype),

    def forward(self, inputs, device):
        f = F.batch_inv if self.batched else F.inv
        return f(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.linalg.inv(inputs[0].astype(numpy.float64)).astype(self.dtype),


def test_singular():
    with pytest.raises(ValueError):
        F.inv(numpy.ones((2, 2), numpy.float32))


def test_invalid():
    with pytest.raises(type_check.InvalidType, match=r'in: Inv \(Forward'):
        F.inv(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r'in: Inv \(Forward'):
        F.inv(numpy.ones((2, 2, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r'in: Inv \(Forward'):
        F.inv(numpy.ones((2, 2), numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r'in: BatchInv \(Forward'):
        F.batch_inv(numpy.ones((2, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r'in: BatchInv \(Forward'):
        F.batch_inv(numpy.ones((2, 2, 3), numpy.float32))
