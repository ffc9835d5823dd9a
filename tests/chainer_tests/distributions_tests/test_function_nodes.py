"""The differentiable helpers the distributions are built on, through FunctionTestCase."""
import numpy
import pytest

from chainer import testing
from chainer.distributions import bernoulli
from chainer.distributions import beta
from chainer.distributions import cauchy
from chainer.distributions import dirichlet
from chainer.distributions import laplace
from chainer.distributions import multivariate_normal
from chainer.utils import type_check

stats = pytest.importorskip('scipy.stats')
special = pytest.importorskip('scipy.special')

_TOLERANCES = {
    numpy.float32: {'forward': {'atol': 1e-5, 'rtol': 1e-4},
                    'backward': {'atol': 1e-3, 'rtol': 1e-2}},
    numpy.float64: {'forward': {'atol': 1e-10, 'rtol': 1e-8},
                    'backward': {'atol': 1e-5, 'rtol': 1e-4}},
}


class _Tolerances:
    # A mixin (not a test case itself): the per-dtype tolerances of _TOLERANCES.

    def setUp(self):
        tol = _TOLERANCES[self.dtype]
        self.check_forward_options = tol['forward']
        self.check_backward_options = tol['backward']
        self.check_double_backward_options = tol['backward']


_PARAMS = testing.product({'shape': [(3, 2), ()], 'dtype': [numpy.float32, numpy.float64]})
_BACKENDS = testing.inject_backend_tests(None, [{}, {'use_cuda': True}])


@testing.parameterize(*testing.product({
    'shape': [(3, 2), ()], 'dtype': [numpy.float32, numpy.float64],
    'binary_check': [True, False], 'binary': [True, False]}))
@_BACKENDS
class TestBernoulliLogProb(_Tolerances, testing.FunctionTestCase):

    def generate_inputs(self):
        logit = numpy.random.normal(size=self.shape).astype(self.dtype)
        if self.binary:
            x = numpy.random.randint(0, 2, self.shape).astype(self.dtype)
        else:
            x = numpy.random.uniform(0.1, 0.9, self.shape).astype(self.dtype)
        self.x = x
        return logit,

    def forward(self, inputs, device):
        return bernoulli._bernoulli_log_prob(inputs[0], device.send(self.x),
                                             self.binary_check),

    def forward_expected(self, inputs):
        logit = inputs[0].astype(numpy.float64)
        p = 1 / (1 + numpy.exp(-logit))
        y = self.x * numpy.log(p) + (1 - self.x) * numpy.log1p(-p)
        if self.binary_check and not self.binary:
            y = numpy.full_like(y, -numpy.inf)
        return numpy.asarray(y, self.dtype),

    def test_backward(self, backend_config):
        if self.binary_check and not self.binary:
            pytest.skip('-inf everywhere: nothing to differentiate')
        super().test_backward(backend_config)

    def test_double_backward(self, backend_config):
        if self.binary_check and not self.binary:
            pytest.skip('-inf everywhere: nothing to differentiate')
        super().test_double_backward(backend_config)


def _signs(shape):
    return numpy.where(numpy.random.uniform(size=shape) < 0.5, -1.0, 1.0)


@testing.parameterize(*_PARAMS)
@_BACKENDS
class TestLaplaceCDF(_Tolerances, testing.FunctionTestCase):

    def generate_inputs(self):
        # away from the kink at 0, where the numerical gradients straddle two branches
        x = numpy.random.uniform(0.1, 3, self.shape) * _signs(self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return laplace._laplace_cdf(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.asarray(stats.laplace.cdf(inputs[0]), self.dtype),


@testing.parameterize(*_PARAMS)
@_BACKENDS
class TestLaplaceICDF(_Tolerances, testing.FunctionTestCase):

    def generate_inputs(self):
        # away from the kink at 0.5 (see TestLaplaceCDF)
        p = 0.5 + numpy.random.uniform(0.05, 0.45, self.shape) * _signs(self.shape)
        return p.astype(self.dtype),

    def forward(self, inputs, device):
        return laplace._laplace_icdf(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.asarray(stats.laplace.ppf(inputs[0]), self.dtype),


def test_laplace_cdf_gradient_at_the_kink():
    import chainer
    x = chainer.Variable(numpy.zeros((), numpy.float32))
    laplace._laplace_cdf(x).backward()
    assert x.grad == 0.5
    p = chainer.Variable(numpy.full((), 0.5, numpy.float32))
    laplace._laplace_icdf(p).backward()
    assert p.grad == 2


@testing.parameterize(*testing.product({
    'shape': [(3, 3), (2, 4, 4)], 'dtype': [numpy.float32, numpy.float64],
    'lower': [True, False]}))
@_BACKENDS
class TestTriangularInv(_Tolerances, testing.FunctionTestCase):

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, self.shape)
        d = self.shape[-1]
        a += numpy.eye(d) * (numpy.random.uniform(1, 2, self.shape[:-1])[..., None] * 2)
        return a.astype(self.dtype),

    def forward(self, inputs, device):
        return multivariate_normal._triangular_inv(inputs[0], self.lower),

    def forward_expected(self, inputs):
        a = inputs[0].astype(numpy.float64)
        triangle = numpy.tril(a) if self.lower else numpy.triu(a)
        return numpy.linalg.inv(triangle).astype(self.dtype),


def test_triangular_inv_needs_square_matrices():
    with pytest.raises(type_check.InvalidType):
        multivariate_normal._triangular_inv(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        multivariate_normal._triangular_inv(numpy.ones(3, numpy.float32))


def test_triangular_logdet_and_batch_inv():
    a = numpy.array([[[2., 0], [1, 3]], [[1, 0], [5, -4]]])
    numpy.testing.assert_allclose(multivariate_normal._triangular_logdet(a).array,
                                  [numpy.log(6), numpy.log(4)])
    numpy.testing.assert_allclose(multivariate_normal._batch_triangular_inv(a).array,
                                  numpy.linalg.inv(a))


def test_beta_functions_and_cauchy_icdf():
    a, b = numpy.array([0.5, 2, 3]), numpy.array([1.5, 2, 0.7])
    numpy.testing.assert_allclose(beta._lbeta(a, b).array, special.betaln(a, b))
    alpha = numpy.array([[1., 2, 3], [0.5, 0.5, 4]])
    expected = special.gammaln(alpha).sum(-1) - special.gammaln(alpha.sum(-1))
    numpy.testing.assert_allclose(dirichlet._lbeta(alpha).array, expected)
    u = numpy.array([0.1, 0.5, 0.8])
    numpy.testing.assert_allclose(cauchy._cauchy_icdf(u).array, stats.cauchy.ppf(u),
                                  atol=1e-12)
