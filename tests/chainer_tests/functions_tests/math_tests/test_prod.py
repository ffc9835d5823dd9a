import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*(
    testing.product({
        'shape': [(3, 4)],
        'axis': [None, 0, -1, (0, 1)],
        'keepdims': [False, True],
        'zeros': [0, 1, 2],
        'dtype': [numpy.float64],
    })
    + testing.product({
        'shape': [(2, 3), (), (0, 2)],
        'axis': [None],
        'keepdims': [False],
        'zeros': [0],
        'dtype': [numpy.float16, numpy.float32],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestProd(testing.FunctionTestCase):

    # float16: products of several float16 factors
    tolerances = {numpy.float16: (None, (1e-2, 5e-2), (5e-2, 1e-1))}

    def setUp(self):
        if self.zeros == 2:
            # NOTE: second derivatives are not exact where a reduced group holds
            # two or more zeros (documented in Prod.backward).
            self.skip_double_backward_test = True

    def generate_inputs(self):
        x = numpy.random.uniform(0.5, 1.5, self.shape)
        x *= numpy.random.choice([-1, 1], self.shape)
        if self.zeros:
            x[0, 1] = 0
        if self.zeros == 2:
            x[0, 3] = 0
            x[2, 1] = 0
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.prod(inputs[0], axis=self.axis, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        y = inputs[0].prod(axis=self.axis, keepdims=self.keepdims)
        return numpy.asarray(y, self.dtype),


def test_gradient_with_one_zero():
    x = chainer.Variable(numpy.array([2., 0., 3.], numpy.float32))
    F.prod(x).backward()
    numpy.testing.assert_array_equal(x.grad, [0, 6, 0])


def test_invalid():
    with pytest.raises(type_check.InvalidType, match='Prod'):
        F.prod(numpy.ones((2, 3), numpy.int32))
    with pytest.raises(type_check.InvalidType, match='Prod'):
        F.prod(numpy.ones((2, 3), numpy.float32), axis=2)
    with pytest.raises(TypeError):
        F.prod(numpy.ones((2, 3), numpy.float32), axis=[0])
