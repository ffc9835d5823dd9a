import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (3, 4), 'axis': 0, 'n': 3},
        {'shape': (3, 4), 'axis': 2, 'n': 2},
        {'shape': (3, 4), 'axis': -1, 'n': 2},
        {'shape': (3, 4), 'axis': -3, 'n': 2},
        {'shape': (), 'axis': 0, 'n': 3},
        {'shape': (0, 2), 'axis': 1, 'n': 2},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestStack(testing.FunctionTestCase):

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
                     for _ in range(self.n))

    def forward(self, inputs, device):
        return F.stack(inputs, axis=self.axis),

    def forward_expected(self, inputs):
        return numpy.stack(inputs, axis=self.axis),


@pytest.mark.parametrize('shapes, dtypes, axis', [
    ([(2, 3), (2, 4)], 'ff', 0),
    ([(2, 3), (2, 3)], 'fd', 0),
    ([(2, 3), (2, 3)], 'ff', 3),
    ([(2, 3), (2, 3)], 'ff', -4),
])
def test_invalid(shapes, dtypes, axis):
    xs = [numpy.zeros(s, d) for s, d in zip(shapes, dtypes)]
    with pytest.raises(type_check.InvalidType, match='Stack'):
        F.stack(xs, axis=axis)
