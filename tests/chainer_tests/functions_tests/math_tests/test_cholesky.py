import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'n': [1, 4],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCholesky(testing.FunctionTestCase):

    tolerances = {
        # float16: the factorization amplifies float16 rounding
        numpy.float16: (5e-3, (2e-2, 5e-2), (5e-2, 1e-1)),
        # float32: the gradient solves two triangular systems, which amplifies rounding
        numpy.float32: (None, 1e-3, (1e-3, 1e-2)),
    }

    def generate_inputs(self):
        m = numpy.random.uniform(-1, 1, (self.n, self.n))
        return (m @ m.T + numpy.eye(self.n) * self.n).astype(self.dtype),

    def forward(self, inputs, device):
        a, = inputs
        # Cholesky reads one triangle only; symmetrise so that the numerical
        # gradient sees symmetric perturbations, the only ones that exist.
        return F.cholesky((a + F.transpose(a)) * 0.5),

    def forward_expected(self, inputs):
        return numpy.linalg.cholesky(inputs[0].astype(numpy.float64)).astype(self.dtype),


def test_gradient_is_symmetric():
    a = chainer.Variable(numpy.array([[4., 2.], [2., 5.]]))
    y = F.cholesky(a)
    y.grad = numpy.array([[1., 0.], [2., 3.]])
    y.backward()
    numpy.testing.assert_allclose(a.grad, a.grad.T)


def test_not_positive_definite():
    with pytest.raises(ValueError):
        F.cholesky(-numpy.eye(2, dtype=numpy.float32))


def test_invalid():
    with pytest.raises(type_check.InvalidType, match='cholesky'):
        F.cholesky(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='cholesky'):
        F.cholesky(numpy.ones((2, 2, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='cholesky'):
        F.cholesky(numpy.eye(2, dtype=numpy.int32))
