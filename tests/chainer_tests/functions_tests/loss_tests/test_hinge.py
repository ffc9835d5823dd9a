import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'norm': ['L1', 'L2'],
    'reduce': ['mean', 'no'],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestHinge(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the kinks at |x| = 1
    # float16: squared margins reach 9, where float16 steps by 0.008
    tolerances = {numpy.float16: (1e-2, None, 5e-2)}

    def setUp(self):
        if self.norm == 'L1':
            # Piecewise linear: the second derivative is 0 and not checked numerically.
            self.skip_double_backward_test = True

    def generate_inputs(self):
        x = numpy.random.uniform(-2, 2, (6, 4)).astype(self.dtype)
        t = numpy.random.randint(0, 4, 6).astype(numpy.int32)
        return x, t

    def forward(self, inputs, device):
        return F.hinge(*inputs, norm=self.norm, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t = inputs
        s = numpy.ones(x.shape)
        s[numpy.arange(len(t)), t] = -1
        loss = numpy.maximum(1 + s * x, 0)
        if self.norm == 'L2':
            loss = loss ** 2
        if self.reduce == 'mean':
            loss = loss.sum() / len(x)
        return numpy.asarray(loss, self.dtype),


def test_bad_input():
    x = numpy.zeros((2, 3), 'f')
    t = numpy.array([0, 2], 'i')
    check_bad_reduce(lambda r: F.hinge(x, t, reduce=r), 'hinge')
    with pytest.raises(NotImplementedError, match='hinge.*L3'):
        F.hinge(x, t, norm='L3')
    with pytest.raises(ValueError, match='hinge: label 3'):
        F.hinge(x, numpy.array([0, 3], 'i'))
    with pytest.raises(type_check.InvalidType, match='Hinge'):
        F.hinge(x, numpy.array([0], 'i'))
