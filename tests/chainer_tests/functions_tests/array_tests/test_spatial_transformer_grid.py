import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product({
    'batch': [3, 0],
    'output_shape': [(5, 6), (1, 2)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSpatialTransformerGrid(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (self.batch, 2, 3)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.spatial_transformer_grid(inputs[0], self.output_shape),

    def forward_expected(self, inputs):
        theta, = inputs
        h, w = self.output_shape
        grid = numpy.empty((len(theta), 2, h, w))
        for i, y in enumerate(numpy.linspace(-1, 1, h)):
            for j, x in enumerate(numpy.linspace(-1, 1, w)):
                grid[:, :, i, j] = theta.astype(numpy.float64) @ numpy.array([x, y, 1])
        return grid.astype(self.dtype),


def test_identity():
    theta = numpy.array([[[1, 0, 0], [0, 1, 0]]], numpy.float32)
    grid = F.spatial_transformer_grid(theta, (2, 3)).array
    numpy.testing.assert_array_equal(grid[0, 0], [[-1, 0, 1], [-1, 0, 1]])
    numpy.testing.assert_array_equal(grid[0, 1], [[-1, -1, -1], [1, 1, 1]])


def test_use_cudnn_argument_is_rejected():
    theta = numpy.zeros((1, 2, 3), numpy.float32)
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_grid(theta, (2, 2), use_cudnn=False)
    with pytest.raises(TypeError):
        F.spatial_transformer_grid(theta, (2, 2), foo=1)


@pytest.mark.parametrize('theta', [
    numpy.zeros((1, 2, 3), numpy.int32),
    numpy.zeros((1, 3, 3), numpy.float32),
    numpy.zeros((1, 2, 2), numpy.float32),
    numpy.zeros((2, 3), numpy.float32),
])
def test_invalid_inputs(theta):
    with pytest.raises(type_check.InvalidType, match='SpatialTransformerGrid'):
        F.spatial_transformer_grid(theta, (2, 2))
