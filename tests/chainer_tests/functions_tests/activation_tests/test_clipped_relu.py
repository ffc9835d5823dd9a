import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'z': [0.75, 20.0],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestClippedReLU(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        # away from the kinks at 0 and z
        x[numpy.abs(x) < 0.1] = 0.5
        x[numpy.abs(x - self.z) < 0.1] = self.z + 0.2
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.clipped_relu(*inputs, z=self.z),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.clip(x, 0, self.dtype(self.z)).astype(self.dtype),


def test_default_z():
    x = numpy.array([-1, 5, 30], numpy.float32)
    numpy.testing.assert_array_equal(F.clipped_relu(x).array, [0, 5, 20])


@pytest.mark.parametrize('z, error', [('2', TypeError), (None, TypeError), (0.0, ValueError),
                                      (-1.0, ValueError)])
def test_invalid_z(z, error):
    with pytest.raises(error):
        F.clipped_relu(numpy.ones(3, numpy.float32), z)


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='ClippedReLU'):
        F.clipped_relu(numpy.ones(3, numpy.int32))
