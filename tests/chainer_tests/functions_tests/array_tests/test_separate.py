import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'shape_axis': [((2, 3, 4), 0), ((2, 3, 4), 1), ((2, 3, 4), -1), ((3,), 0), ((2, 0), 0)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSeparate(testing.FunctionTestCase):

    def generate_inputs(self):
        shape, _ = self.shape_axis
        return numpy.random.uniform(-1, 1, shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.separate(inputs[0], self.shape_axis[1])

    def forward_expected(self, inputs):
        x = numpy.moveaxis(inputs[0], self.shape_axis[1], 0)
        return tuple(numpy.array(s) for s in x)


@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSeparateUnusedOutputs(testing.FunctionTestCase):
    # Only one slice is used: the others get no gradient (None).

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float64),

    def forward(self, inputs, device):
        return F.separate(inputs[0], axis=1)[2],

    def forward_expected(self, inputs):
        return inputs[0][:, 2].copy(),


def test_returns_tuple():
    ys = F.separate(numpy.zeros((1, 2), numpy.float32))
    assert isinstance(ys, tuple) and len(ys) == 1 and ys[0].shape == (2,)


@pytest.mark.parametrize('shape, axis', [((2, 3), 2), ((2, 3), -3), ((), 0)])
def test_invalid_axis(shape, axis):
    with pytest.raises(type_check.InvalidType, match='Separate'):
        F.separate(numpy.zeros(shape, 'f'), axis)


@pytest.mark.parametrize('axis', [1.0, None, '0'])
def test_invalid_axis_type(axis):
    with pytest.raises(TypeError):
        F.separate(numpy.zeros((2, 3), numpy.float32), axis)
