import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSign(testing.FunctionTestCase):

    # The result is cut from the graph: there is nothing to differentiate.
    skip_backward_test = True
    skip_double_backward_test = True

    def generate_inputs(self):
        x = numpy.random.uniform(-10, 10, self.shape).astype(self.dtype)
        if x.size:
            x.flat[0] = 0
        return x,

    def forward(self, inputs, device):
        return F.sign(*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.sign(inputs[0]), self.dtype),


def test_not_in_graph():
    x = chainer.Variable(numpy.array([-1.5, 0.5, 2.], numpy.float32))
    y = F.sign(x)
    assert y.creator is None
    assert not y.requires_grad
    assert y.dtype == numpy.float32
    # The result can still be used further without breaking backprop through x.
    z = F.sum(y * x)
    z.backward()
    numpy.testing.assert_array_equal(x.grad, y.array)


def test_integer_input():
    x = numpy.array([-2, 0, 3], numpy.int32)
    y = F.sign(x)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, numpy.sign(x).astype(numpy.int32))


def test_invalid_type():
    with pytest.raises(TypeError, match='sign'):
        F.sign([1.0, 2.0])
