import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestReLU(testing.FunctionTestCase):

    dodge_nondifferentiable = True     # the kink at 0

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.relu(*inputs),

    def forward_expected(self, inputs):
        x, = inputs
        return numpy.maximum(x, 0).astype(self.dtype),


def test_gradient_at_zero_is_zero():
    x = chainer.Variable(numpy.array([-1, 0, 2], numpy.float32))
    F.sum(F.relu(x)).backward()
    numpy.testing.assert_array_equal(x.grad, [0, 0, 1])


def test_grad_node_is_its_own_backward():
    x = chainer.Variable(numpy.array([-1., 2.], numpy.float32))
    y = F.relu(x)
    gx, = chainer.grad([y], [x], [chainer.Variable(numpy.ones(2, numpy.float32))],
                       enable_double_backprop=True)
    assert type(gx.creator_node).__name__ == 'ReLUGrad2'
    ggy, = chainer.grad([gx], [gx.creator_node.inputs[0].get_variable()],
                        [chainer.Variable(numpy.array([3., 4.], numpy.float32))])
    numpy.testing.assert_array_equal(ggy.array, [0, 4])


def test_label():
    assert F.relu(numpy.ones(2, numpy.float32)).creator.label == 'ReLU'


@pytest.mark.parametrize('dtype', [numpy.int32, numpy.bool_])
def test_invalid_dtype(dtype):
    with pytest.raises(type_check.InvalidType, match='ReLU'):
        F.relu(numpy.ones(3, dtype))
