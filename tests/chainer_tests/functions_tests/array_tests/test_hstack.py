import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shapes': [(2, 3, 4), (2, 1, 4), (2, 0, 4)]},
        {'shapes': [(3,), (2,)]},
        {'shapes': [(), ()]},
        {'shapes': [(2, 3)]},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestHstack(testing.FunctionTestCase):

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.shapes)

    def forward(self, inputs, device):
        return F.hstack(inputs),

    def forward_expected(self, inputs):
        return numpy.hstack(inputs),


@pytest.mark.parametrize('shapes, dtypes', [
    ([(2, 3), (3, 3)], 'ff'),
    ([(2, 3), (2, 3)], 'fd'),
    ([(3,), (2, 3)], 'ff'),
])
def test_invalid(shapes, dtypes):
    xs = [numpy.zeros(s, d) for s, d in zip(shapes, dtypes)]
    with pytest.raises(type_check.InvalidType, match='Hstack'):
        F.hstack(xs)
