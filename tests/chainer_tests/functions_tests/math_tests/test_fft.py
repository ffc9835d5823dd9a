import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*(
    testing.product({
        'method': ['fft', 'ifft'],
        'shape': [(4,), (2, 5), (2, 1, 3)],
        'dtype': [numpy.float32, numpy.float64],
    })
    + testing.product({
        'method': ['fft', 'ifft'],
        'shape': [(3, 4)],
        'dtype': [numpy.float16],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFFT(testing.FunctionTestCase):

    # float16: every output sums all inputs times rounded twiddle factors
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (5e-2, 1e-1))}

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
                     for _ in range(2))

    def forward(self, inputs, device):
        return getattr(F, self.method)(inputs)

    def forward_expected(self, inputs):
        real, imag = inputs
        y = getattr(numpy.fft, self.method)(real + 1j * imag.astype(numpy.float64))
        return y.real.astype(self.dtype), y.imag.astype(self.dtype)


@pytest.mark.parametrize('method', ['fft', 'ifft'])
def test_one_part_used(method):
    # A loss that uses only the real part leaves the imaginary gradient None.
    xr = chainer.Variable(numpy.random.uniform(-1, 1, 4))
    xi = chainer.Variable(numpy.random.uniform(-1, 1, 4))
    yr, _ = getattr(F, method)((xr, xi))
    F.sum(yr).backward()
    n = 4
    sign = -1 if method == 'fft' else 1
    w = numpy.exp(sign * 2j * numpy.pi * numpy.outer(range(n), range(n)) / n)
    if method == 'ifft':
        w /= n
    expected = w.sum(axis=0)  # d sum(Re(W x)) / d(re x, im x) = (Re, -Im) of column sums
    numpy.testing.assert_allclose(xr.grad, expected.real, atol=1e-12)
    numpy.testing.assert_allclose(xi.grad, -expected.imag, atol=1e-12)


def test_round_trip():
    x = (numpy.random.uniform(-1, 1, (2, 6)), numpy.random.uniform(-1, 1, (2, 6)))
    yr, yi = F.ifft(F.fft(x))
    numpy.testing.assert_allclose(yr.array, x[0], atol=1e-12)
    numpy.testing.assert_allclose(yi.array, x[1], atol=1e-12)


def test_invalid():
    re = numpy.ones(4, numpy.float32)
    with pytest.raises(type_check.InvalidType, match='FFT'):
        F.fft((re, numpy.ones(3, numpy.float32)))
    with pytest.raises(type_check.InvalidType, match='FFT'):
        F.fft((re, re.astype(numpy.float64)))
    with pytest.raises(type_check.InvalidType, match='FFT'):
        F.fft((numpy.ones(4, numpy.int32),) * 2)
    with pytest.raises(type_check.InvalidType, match='FFT'):
        F.ifft((numpy.ones((), numpy.float32),) * 2)
