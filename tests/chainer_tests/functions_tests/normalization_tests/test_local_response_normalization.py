import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _lrn(x, n, k, alpha, beta):
    """Explicit loops over the channels of each position."""
    x = x.astype(numpy.float64)
    y = numpy.empty_like(x)
    c_size = x.shape[1]
    for c in range(c_size):
        lo, hi = max(0, c - n // 2), min(c_size, c + n // 2 + 1)
        s = (x[:, lo:hi] ** 2).sum(axis=1)
        y[:, c] = x[:, c] / (k + alpha * s) ** beta
    return y


@testing.parameterize(*testing.product({
    'shape': [(2, 7, 3, 2), (3, 4), (1, 6, 1)],
    'params': [(5, 2, 1e-4, .75), (3, 1, 1., 1.), (4, 1, .5, .5), (1, 2, 1., .75)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestLocalResponseNormalization(testing.FunctionTestCase):

    # float16: sums of squares over neighbouring channels, raised to a power
    tolerances = {numpy.float16: (None, 1e-2, 5e-2)}

    def setUp(self):
        self.check_backward_options = {'atol': 3e-4, 'rtol': 3e-3}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.local_response_normalization(inputs[0], *self.params),

    def forward_expected(self, inputs):
        return _lrn(inputs[0], *self.params).astype(self.dtype),


def test_defaults():
    x = numpy.random.uniform(-1, 1, (2, 7, 3)).astype(numpy.float32)
    numpy.testing.assert_allclose(F.local_response_normalization(x).array,
                                  _lrn(x, 5, 2, 1e-4, .75), rtol=1e-6)


@pytest.mark.parametrize('x', [numpy.ones((2, 3), numpy.int32), numpy.ones(3, numpy.float32)])
def test_invalid_inputs(x):
    with pytest.raises(type_check.InvalidType, match='LocalResponseNormalization'):
        F.local_response_normalization(x)
