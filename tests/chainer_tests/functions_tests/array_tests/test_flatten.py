import numpy

import chainer
import chainer.functions as F
from chainer import testing


@testing.parameterize(*testing.product({
    'shape': [(3, 4), (2, 3, 4), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestFlatten(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.flatten(inputs[0]),

    def forward_expected(self, inputs):
        return inputs[0].flatten(),


def test_1d_input_is_returned_unchanged():
    x = chainer.Variable(numpy.zeros(3, numpy.float32))
    assert F.flatten(x) is x
