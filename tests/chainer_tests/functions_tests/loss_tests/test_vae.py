import math

import numpy
import pytest

import chainer.functions as F
from chainer import testing

from chainer_tests.functions_tests.loss_tests._loss import BACKENDS, check_bad_reduce


def _reduce(loss, reduce):
    return {'sum': loss.sum(), 'mean': loss.mean(), 'no': loss}[reduce]


_FUNCS = {
    'gaussian_kl_divergence': (
        2, lambda m, v: 0.5 * (m * m + numpy.exp(v) - v - 1)),
    'bernoulli_nll': (
        2, lambda x, y: numpy.logaddexp(0, y) - x * y),
    'gaussian_nll': (
        3, lambda x, m, v: 0.5 * (math.log(2 * math.pi) + v + (x - m) ** 2 * numpy.exp(-v))),
}


@testing.parameterize(*testing.product({
    'func': sorted(_FUNCS),
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'reduce': ['sum', 'mean', 'no'],
}))
@testing.inject_backend_tests(None, BACKENDS)
class TestVAELosses(testing.FunctionTestCase):

    # float16: sums of exp and log terms over the batch
    tolerances = {numpy.float16: (1e-2, 2e-2, 5e-2)}

    def generate_inputs(self):
        n = _FUNCS[self.func][0]
        return tuple(numpy.random.uniform(-1, 1, (3, 2)).astype(self.dtype) for _ in range(n))

    def forward(self, inputs, device):
        f = {'gaussian_kl_divergence': F.gaussian_kl_divergence,
             'bernoulli_nll': F.bernoulli_nll, 'gaussian_nll': F.gaussian_nll}[self.func]
        return f(*inputs, reduce=self.reduce),

    def forward_expected(self, inputs):
        loss = _FUNCS[self.func][1](*(a.astype(numpy.float64) for a in inputs))
        return numpy.asarray(_reduce(loss, self.reduce), self.dtype),


@pytest.mark.parametrize('name', sorted(_FUNCS))
def test_bad_reduce(name):
    args = [numpy.zeros(2, 'f')] * _FUNCS[name][0]
    check_bad_reduce(lambda r: getattr(F, name)(*args, reduce=r), name)


def test_bernoulli_nll_is_finite_for_large_logits():
    y = numpy.array([1e4, -1e4], 'f')
    assert numpy.isfinite(F.bernoulli_nll(numpy.array([0., 1.], 'f'), y).array)
