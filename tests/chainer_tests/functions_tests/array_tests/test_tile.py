import numpy
import pytest

import chainer.functions as F
from chainer import testing


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 3), 'reps': 2},
        {'shape': (2, 3), 'reps': (2, 1)},
        {'shape': (2, 3), 'reps': (2, 1, 3)},   # reps longer than ndim
        {'shape': (2, 3, 2), 'reps': (3,)},     # reps shorter than ndim
        {'shape': (), 'reps': (2, 2)},
        {'shape': (2, 3), 'reps': (0, 2)},
        {'shape': (0, 3), 'reps': 2},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTile(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.tile(inputs[0], self.reps),

    def forward_expected(self, inputs):
        return numpy.tile(inputs[0], self.reps),


def test_invalid_reps():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(TypeError):
        F.tile(x, 1.5)
    with pytest.raises(TypeError):
        F.tile(x, (1, None))
    with pytest.raises(ValueError):
        F.tile(x, (-1, 2))
