import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*(
    testing.product({
        'shape': [(3, 4, 2)],
        'axis': [None, 0, 1, -1],
        'zeros': [False, True],
        'dtype': [numpy.float64],
    })
    + testing.product({
        'shape': [(5,), (0, 3), ()],
        'axis': [None],
        'zeros': [False],
        'dtype': [numpy.float16, numpy.float32],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestCumprod(testing.FunctionTestCase):

    # float16: running products accumulate rounding along the axis
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (5e-2, 1e-1))}

    def generate_inputs(self):
        x = numpy.random.uniform(0.5, 1.5, self.shape)
        x *= numpy.random.choice([-1, 1], self.shape)
        if self.zeros:
            # Several zeros in some slices, at the ends and in the middle.
            x[0, 1, 0] = x[0, 3, 0] = x[2, 0, 1] = x[1, 1, 1] = x[1, 2, 1] = 0
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.cumprod(inputs[0], axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.cumprod(inputs[0], axis=self.axis).astype(self.dtype),


def test_gradient_at_zero():
    x = chainer.Variable(numpy.array([2., 0., 3., 4.], numpy.float32))
    F.sum(F.cumprod(x)).backward()
    # d/dx_1 of 2 + 2 x1 + 2 x1 x2 + 2 x1 x2 x3 = 2 + 6 + 24
    numpy.testing.assert_array_equal(x.grad, [1, 32, 0, 0])


def test_invalid():
    with pytest.raises(type_check.InvalidType, match='Cumprod'):
        F.cumprod(numpy.ones((2, 3), numpy.int32))
    with pytest.raises(type_check.InvalidType, match='Cumprod'):
        F.cumprod(numpy.ones((2, 3), numpy.float32), axis=2)
    with pytest.raises(TypeError, match='cumprod: axis must be None or an int, got float 1.0'):
        F.cumprod(numpy.ones((2, 3), numpy.float32), axis=1.0)
