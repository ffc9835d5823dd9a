import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

_FUNCS = {'cosh': (F.cosh, numpy.cosh), 'sinh': (F.sinh, numpy.sinh)}


@testing.parameterize(*testing.product({
    'name': ['cosh', 'sinh'],
    'shape': [(3, 2), ()],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHyperbolic(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-2, 2, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return _FUNCS[self.name][0](*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(_FUNCS[self.name][1](inputs[0]), self.dtype),


@pytest.mark.parametrize('name', ['cosh', 'sinh'])
def test_integer_input(name):
    with pytest.raises(type_check.InvalidType, match=name):
        _FUNCS[name][0](numpy.zeros(3, numpy.int32))
