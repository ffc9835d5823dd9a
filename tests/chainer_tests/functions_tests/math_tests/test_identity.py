import numpy

import chainer
import chainer.functions as F
from chainer import testing


@testing.parameterize(*testing.product({
    'n': [1, 3],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestIdentity(testing.FunctionTestCase):

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, (2, i + 1)).astype(self.dtype)
                     for i in range(self.n))

    def forward(self, inputs, device):
        ys = F.identity(*inputs)
        return ys if isinstance(ys, tuple) else (ys,)

    def forward_expected(self, inputs):
        return inputs


def test_returns_new_variables():
    x = chainer.Variable(numpy.ones(2, numpy.float32))
    y = F.identity(x)
    assert isinstance(y, chainer.Variable)
    assert y is not x
    assert y.creator is not None
    _, b = F.identity(x, numpy.zeros(3, numpy.int32))
    assert b.dtype == numpy.int32
