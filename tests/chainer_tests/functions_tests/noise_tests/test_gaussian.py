import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (4, 1, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGaussian(testing.FunctionTestCase):

    # float16: exp(ln_var / 2) times noise, each rounded to float16
    tolerances = {numpy.float16: (None, 1e-2, 5e-2)}

    def setUp(self):
        self.eps = numpy.random.standard_normal(self.shape).astype(self.dtype)
        self.check_backward_options = {'atol': 1e-3, 'rtol': 1e-2}
        self.check_double_backward_options = {'atol': 1e-3, 'rtol': 1e-2}

    def generate_inputs(self):
        mean = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        ln_var = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return mean, ln_var

    def forward(self, inputs, device):
        return F.gaussian(*inputs, eps=device.send(self.eps)),

    def forward_expected(self, inputs):
        mean, ln_var = (a.astype(numpy.float64) for a in inputs)
        return (mean + numpy.exp(ln_var / 2) * self.eps).astype(self.dtype),


@pytest.mark.parametrize('train', [True, False])
def test_samples_and_returns_eps(train):
    numpy.random.seed(0)
    mean = numpy.full((100, 100), 2., numpy.float32)
    ln_var = numpy.full((100, 100), numpy.log(9.), numpy.float32)
    with chainer.using_config('train', train):
        y, eps = F.gaussian(mean, ln_var, return_eps=True)
    assert eps.dtype == numpy.float32 and eps.shape == mean.shape
    numpy.testing.assert_allclose(y.array, 2 + 3 * eps, rtol=1e-5)
    assert abs(y.array.mean() - 2) < .1 and abs(y.array.std() - 3) < .1
    numpy.testing.assert_array_equal(F.gaussian(mean, ln_var, eps=eps).array, y.array)


def test_bad_inputs():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='Gaussian'):
        F.gaussian(x, x[:1])
    with pytest.raises(type_check.InvalidType, match='Gaussian'):
        F.gaussian(x, x.astype(numpy.float64))
    with pytest.raises(TypeError, match='unexpected'):
        F.gaussian(x, x, foo=1)
    with pytest.raises(ValueError, match='gaussian: eps'):
        F.gaussian(x, x, eps=numpy.ones(3, numpy.float32))
