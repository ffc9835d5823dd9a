import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'batched': [False, True],
    'n': [1, 3],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestDet(testing.FunctionTestCase):

    tolerances = {
        # float16: an LU factorization in float16 precision
        numpy.float16: (5e-3, (2e-2, 5e-2), (5e-2, 1e-1)),
        # float32: the gradient goes through the inverse, which amplifies rounding
        numpy.float32: (None, 1e-3, (1e-3, 1e-2)),
    }

    def generate_inputs(self):
        shape = ((2,) if self.batched else ()) + (self.n, self.n)
        a = numpy.random.uniform(-0.5, 0.5, shape) + numpy.eye(self.n)
        return a.astype(self.dtype),

    def forward(self, inputs, device):
        f = F.batch_det if self.batched else F.det
        return f(inputs[0]),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.linalg.det(inputs[0].astype(numpy.float64)), self.dtype),


def test_det_of_product():
    a = numpy.random.uniform(-1, 1, (3, 3)).astype(numpy.float64)
    b = numpy.random.uniform(-1, 1, (3, 3)).astype(numpy.float64)
    y = F.det(F.matmul(a, b))
    numpy.testing.assert_allclose(y.array, numpy.linalg.det(a) * numpy.linalg.det(b))


def test_gradient_is_cofactor_matrix():
    a = chainer.Variable(numpy.array([[2., 1.], [1., 3.]]))
    F.det(a).backward()
    numpy.testing.assert_allclose(a.grad, [[3, -1], [-1, 2]])


def test_invalid():
    with pytest.raises(type_check.InvalidType, match=r'in: det \(Forward'):
        F.det(numpy.ones((2, 3), numpy.float32))
    # det is a batch of one matrix, as in Chainer: a 3-D input fails in the reshape
    with pytest.raises(type_check.InvalidType, match=r'in: Reshape \(Forward'):
        F.det(numpy.ones((2, 2, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match=r'in: det \(Forward'):
        F.det(numpy.ones((2, 2), numpy.int32))
    with pytest.raises(type_check.InvalidType, match=r'in: det \(Forward'):
        F.batch_det(numpy.ones((2, 2), numpy.float32))
