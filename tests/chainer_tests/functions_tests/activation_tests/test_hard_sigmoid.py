import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHardSigmoid(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the kinks at +-2.5
    # Piecewise linear, so any eps gives exact slopes; float16 rounds 0.2 * x + 0.5 and so
    # moves the kinks by up to ~2.5e-3, which eps must cover for the dodge to see them.
    check_backward_options = {'eps': 1e-2}

    def generate_inputs(self):
        x = numpy.random.uniform(-4, 4, self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.hard_sigmoid(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.clip(x * 0.2 + 0.5, 0, 1).astype(self.dtype),


def test_gradient():
    x = chainer.Variable(numpy.array([-3, -1, 0, 2, 4], numpy.float32))
    F.sum(F.hard_sigmoid(x)).backward()
    numpy.testing.assert_allclose(x.grad, [0, 0.2, 0.2, 0.2, 0])


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='HardSigmoid'):
        F.hard_sigmoid(numpy.ones(3, numpy.int32))
