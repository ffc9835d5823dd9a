import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSigmoid(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-3, 3, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.sigmoid(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        return (1 / (1 + numpy.exp(-x.astype(numpy.float64)))).astype(self.dtype),


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_large_inputs_do_not_overflow(dtype):
    x = numpy.array([-1e4, -100, 0, 100, 1e4], dtype)
    with numpy.errstate(all='raise'):
        y = F.sigmoid(x).array
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y, [0, 0, 0.5, 1, 1], atol=1e-6)


def test_label():
    assert F.sigmoid(numpy.ones(2, numpy.float32)).creator.label == 'Sigmoid'


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='Sigmoid'):
        F.sigmoid(numpy.ones(3, numpy.int32))
