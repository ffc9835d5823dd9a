import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

# name -> (function, NumPy reference, input range kept away from poles and edges)
_FUNCS = {
    'sin': (F.sin, numpy.sin, (-3, 3)),
    'cos': (F.cos, numpy.cos, (-3, 3)),
    'tan': (F.tan, numpy.tan, (-1.2, 1.2)),
    'arcsin': (F.arcsin, numpy.arcsin, (-0.8, 0.8)),
    'arccos': (F.arccos, numpy.arccos, (-0.8, 0.8)),
    'arctan': (F.arctan, numpy.arctan, (-3, 3)),
}


@testing.parameterize(*testing.product({
    'name': sorted(_FUNCS),
    'shape': [(3, 2), ()],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestUnaryTrigonometric(testing.FunctionTestCase):

    def generate_inputs(self):
        low, high = _FUNCS[self.name][2]
        return numpy.random.uniform(low, high, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return _FUNCS[self.name][0](*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(_FUNCS[self.name][1](inputs[0]), self.dtype),


@testing.parameterize(*testing.product({
    'shapes': [((3, 2), (3, 2)), ((3, 2), (2,)), ((), (4,)), ((0, 2), (1, 2))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestArctan2(testing.FunctionTestCase):

    def generate_inputs(self):
        s1, s2 = self.shapes
        x1 = numpy.random.uniform(-1, 1, s1).astype(self.dtype)
        # Keep x2 away from 0 so no input sits on the branch cut at x2 < 0, x1 = 0
        # or the singular origin.
        x2 = numpy.random.uniform(0.5, 1, s2) * numpy.random.choice([-1, 1], s2)
        return x1, x2.astype(self.dtype)

    def forward(self, inputs, device):
        return F.arctan2(*inputs),

    def forward_expected(self, inputs):
        return numpy.asarray(numpy.arctan2(*inputs), self.dtype),


@pytest.mark.parametrize('name', sorted(_FUNCS))
def test_integer_input(name):
    with pytest.raises(type_check.InvalidType, match=name):
        _FUNCS[name][0](numpy.arange(3, dtype=numpy.int32))


def test_arctan2_invalid():
    x = numpy.zeros((2, 3), numpy.float32)
    # two float dtypes are accepted (Chainer 7.8.1 promotes them)
    assert F.arctan2(x, numpy.zeros((2, 3), numpy.float64)).dtype == numpy.float64
    with pytest.raises(type_check.InvalidType, match='arctan2'):
        F.arctan2(x, numpy.zeros((4,), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='arctan2'):
        F.arctan2(numpy.zeros(3, numpy.int32), numpy.zeros(3, numpy.int32))
