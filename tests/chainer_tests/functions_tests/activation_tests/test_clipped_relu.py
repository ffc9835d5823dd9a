import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.functions.activation import clipped_relu as clipped_relu_module
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'z': [0.75, 20.0],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestClippedReLU(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the kinks at 0 and z

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.clipped_relu(*inputs, z=self.z),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.clip(x, 0, self.dtype(self.z)).astype(self.dtype),


def test_default_z():
    x = numpy.array([-1, 5, 30], numpy.float32)
    numpy.testing.assert_array_equal(F.clipped_relu(x).array, [0, 5, 20])


@pytest.mark.parametrize('z, error', [('2', TypeError), (None, TypeError), (0.0, ValueError),
                                      (-1.0, ValueError)])
def test_invalid_z(z, error):
    with pytest.raises(error):
        F.clipped_relu(numpy.ones(3, numpy.float32), z)


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='ClippedReLU'):
        F.clipped_relu(numpy.ones(3, numpy.int32))


# relu6 lives in the same module as clipped_relu, as in Chainer 7 (there is no
# chainer.functions.activation.relu6 module).
@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestReLU6(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the kinks at 0 and 6

    def generate_inputs(self):
        x = numpy.random.uniform(-8, 8, self.shape)
        return x.astype(self.dtype),

    def forward(self, inputs, device):
        return F.relu6(*inputs),

    def forward_expected(self, inputs):
        return numpy.clip(inputs[0], 0, 6).astype(self.dtype),


def test_relu6_module_path():
    assert clipped_relu_module.relu6 is F.relu6
    assert F.relu6.__module__ == 'chainer.functions.activation.clipped_relu'


def test_relu6_values_and_gradient():
    x = chainer.Variable(numpy.array([-3, 2, 10], numpy.float32))
    y = F.relu6(x)
    numpy.testing.assert_array_equal(y.array, [0, 2, 6])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [0, 1, 0])


def test_relu6_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='ClippedReLU'):
        F.relu6(numpy.ones(3, numpy.int32))
