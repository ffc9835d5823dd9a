import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'source': 0, 'destination': -1},
        {'source': -1, 'destination': 1},
        {'source': (0, 2), 'destination': (3, 0)},
        {'source': (1, -1), 'destination': (-1, 1)},
        {'source': (), 'destination': ()},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMoveaxis(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4, 5)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.moveaxis(inputs[0], self.source, self.destination),

    def forward_expected(self, inputs):
        return numpy.moveaxis(inputs[0], self.source, self.destination).copy(),


@pytest.mark.parametrize('source, destination', [(4, 0), (0, -5), ((0, 1), (2, 4))])
def test_axis_out_of_range(source, destination):
    with pytest.raises(type_check.InvalidType, match='Moveaxis'):
        F.moveaxis(numpy.zeros((2, 3, 4, 5), numpy.float32), source, destination)


def test_invalid_arguments():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(TypeError):
        F.moveaxis(x, 0.5, 1)
    with pytest.raises(ValueError):
        F.moveaxis(x, (0, 1), (1,))
