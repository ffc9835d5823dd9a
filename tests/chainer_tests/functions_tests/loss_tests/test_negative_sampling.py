import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


def _sampler(xp, n_rows):
    # Deterministic draws, so that every call of the function sees the same samples.
    def sample(shape):
        return xp.asarray((numpy.arange(numpy.prod(shape)) % n_rows).reshape(shape), 'i')
    return sample


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['sum', 'no'],
    't': [(0, 4, 2), (1, -1, 3)],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestNegativeSampling(testing.FunctionTestCase):

    sample_size = 3

    # float16: sums of log-sigmoids of float16 dot products
    tolerances = {numpy.float16: (5e-3, 2e-2, 5e-2)}

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype)
        w = numpy.random.uniform(-1, 1, (5, 2)).astype(self.dtype)
        return x, w

    def forward(self, inputs, device):
        x, w = inputs
        t = device.send(numpy.array(self.t, numpy.int32))
        return F.negative_sampling(x, t, w, _sampler(device.xp, 5), self.sample_size,
                                   reduce=self.reduce),

    def forward_expected(self, inputs):
        x, w = (a.astype(numpy.float64) for a in inputs)
        samples = _sampler(numpy, 5)((3, self.sample_size + 1))
        loss = numpy.zeros(3)
        for i, t in enumerate(self.t):
            if t == -1:
                continue
            rows = [t] + list(samples[i, 1:])
            f = w[rows].dot(x[i])
            f[0] *= -1
            loss[i] = numpy.logaddexp(0, f).sum()
        if self.reduce == 'sum':
            loss = loss.sum()
        return numpy.asarray(loss, self.dtype),


def test_return_samples():
    x = numpy.zeros((2, 3), 'f')
    w = numpy.zeros((4, 3), 'f')
    loss, samples = F.negative_sampling(x, numpy.array([3, 1], 'i'), w, _sampler(numpy, 4), 2,
                                        return_samples=True)
    assert samples.dtype == numpy.int32 and samples.shape == (2, 3)
    numpy.testing.assert_array_equal(samples, [[3, 1, 2], [1, 0, 1]])
    assert loss.dtype == numpy.float32


def test_bad_input():
    x = numpy.zeros((2, 3), 'f')
    w = numpy.zeros((4, 3), 'f')
    t = numpy.array([0, 1], 'i')
    s = _sampler(numpy, 4)
    check_bad_reduce(lambda r: F.negative_sampling(x, t, w, s, 2, reduce=r), 'negative_sampling')
    with pytest.raises(ValueError, match='negative_sampling: label 4'):
        F.negative_sampling(x, numpy.array([0, 4], 'i'), w, s, 2)
    with pytest.raises(ValueError, match='sampler'):
        F.negative_sampling(x, t, w, lambda shape: numpy.zeros(3, 'i'), 2)
    with pytest.raises(type_check.InvalidType, match='NegativeSamplingFunction'):
        F.negative_sampling(x, t[:1], w, s, 2)
    with pytest.raises(TypeError):
        F.negative_sampling(x, t, w, s, 2, no_such_option=True)
