import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _expected(x, W):
    shape = (1,) + W.shape + (1,) * (x.ndim - W.ndim - 1)
    return numpy.where(x >= 0, x, x * W.reshape(shape)).astype(x.dtype)


@testing.parameterize(*testing.product({
    'shapes': [((4, 3), (3,)), ((2, 3, 4), (3,)), ((2, 3, 4), (3, 4)), ((3, 2), ()),
               ((0, 3), (3,))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPReLU(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the kink at 0

    def generate_inputs(self):
        x_shape, w_shape = self.shapes
        x = numpy.random.uniform(-1, 1, x_shape)
        W = numpy.random.uniform(-1, 1, w_shape)
        return x.astype(self.dtype), W.astype(self.dtype)

    def forward(self, inputs, device):
        return F.prelu(*inputs),

    def forward_expected(self, inputs):
        return _expected(*inputs),


@pytest.mark.parametrize('x, W', [
    (numpy.ones((2, 3), numpy.int32), numpy.ones(3, numpy.int32)),
    (numpy.ones((2, 3), numpy.float32), numpy.ones(3, numpy.float64)),
    (numpy.ones((2, 3), numpy.float32), numpy.ones(2, numpy.float32)),
    (numpy.ones((3,), numpy.float32), numpy.ones(3, numpy.float32)),
])
def test_invalid_inputs(x, W):
    with pytest.raises(type_check.InvalidType, match='PReLUFunction'):
        F.prelu(x, W)
