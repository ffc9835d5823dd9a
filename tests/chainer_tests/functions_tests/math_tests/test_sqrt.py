import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _rsqrt(x):
    return 1 / numpy.sqrt(x)


_FUNCS = {'sqrt': (F.sqrt, numpy.sqrt), 'rsqrt': (F.rsqrt, _rsqrt)}


@testing.parameterize(*testing.product({
    'name': ['sqrt', 'rsqrt'],
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSqrt(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(0.5, 3, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return _FUNCS[self.name][0](*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(_FUNCS[self.name][1](inputs[0]), self.dtype),


@pytest.mark.parametrize('name', ['sqrt', 'rsqrt'])
def test_integer_input(name):
    with pytest.raises(type_check.InvalidType, match=name):
        _FUNCS[name][0](numpy.ones(3, numpy.int32))
