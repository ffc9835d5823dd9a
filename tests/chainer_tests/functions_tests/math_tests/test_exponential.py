import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

# name -> (function, NumPy reference, input range)
_FUNCS = {
    'exp': (F.exp, numpy.exp, (-1, 1)),
    'log': (F.log, numpy.log, (0.5, 3)),
    'log2': (F.log2, numpy.log2, (0.5, 3)),
    'log10': (F.log10, numpy.log10, (0.5, 3)),
}


@testing.parameterize(*testing.product({
    'name': sorted(_FUNCS),
    'shape': [(3, 2), (), (0, 3)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestExponential(testing.FunctionTestCase):

    def generate_inputs(self):
        low, high = _FUNCS[self.name][2]
        return numpy.random.uniform(low, high, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return _FUNCS[self.name][0](*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(_FUNCS[self.name][1](inputs[0]), self.dtype),


@pytest.mark.parametrize('name', sorted(_FUNCS))
def test_integer_input(name):
    with pytest.raises(type_check.InvalidType, match=name):
        _FUNCS[name][0](numpy.ones(3, numpy.int32))


@pytest.mark.parametrize('name', sorted(_FUNCS))
def test_labels(name):
    y = _FUNCS[name][0](numpy.ones(2, numpy.float32))
    assert y.creator.label == name
