import math

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _reference(x, grid):
    # Bilinear sampling with zero padding, one output pixel at a time.
    n, c, h, w = x.shape
    x = x.astype(numpy.float64)
    out = numpy.zeros((n, c) + grid.shape[2:])
    for b in range(n):
        for i in range(grid.shape[2]):
            for j in range(grid.shape[3]):
                u = (float(grid[b, 0, i, j]) + 1) * (w - 1) / 2
                v = (float(grid[b, 1, i, j]) + 1) * (h - 1) / 2
                u0, v0 = math.floor(u), math.floor(v)
                for vv, wv in ((v0, v0 + 1 - v), (v0 + 1, v - v0)):
                    for uu, wu in ((u0, u0 + 1 - u), (u0 + 1, u - u0)):
                        if 0 <= vv < h and 0 <= uu < w:
                            out[b, :, i, j] += wv * wu * x[b, :, vv, uu]
    return out


def _random_grid(n, in_hw, out_hw, dtype):
    # Pixel coordinates kept away from integers (where the sampler has kinks),
    # including points partly and fully outside the image.
    h, w = in_hw
    u = numpy.random.randint(-2, w + 1, (n,) + out_hw) + numpy.random.uniform(0.15, 0.85)
    v = numpy.random.randint(-2, h + 1, (n,) + out_hw) + numpy.random.uniform(0.15, 0.85)
    return numpy.stack([u / ((w - 1) / 2) - 1, v / ((h - 1) / 2) - 1], axis=1).astype(dtype)


@testing.parameterize(*testing.product({
    'shapes': [((2, 3, 4, 5), (3, 2)), ((1, 1, 3, 3), (4, 4)), ((0, 2, 3, 3), (2, 2))],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSpatialTransformerSampler(testing.FunctionTestCase):

    # float16: bilinear weights and grid coordinates rounded to float16
    tolerances = {numpy.float16: (5e-3, 5e-2, 5e-2)}

    def generate_inputs(self):
        x_shape, out_hw = self.shapes
        x = numpy.random.uniform(-1, 1, x_shape).astype(self.dtype)
        return x, _random_grid(x_shape[0], x_shape[2:], out_hw, self.dtype)

    def forward(self, inputs, device):
        return F.spatial_transformer_sampler(*inputs),

    def forward_expected(self, inputs):
        return _reference(*inputs).astype(self.dtype),


@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSpatialTransformerSamplerMixedDtypes(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (2, 2, 3, 4)).astype(numpy.float32)
        return x, _random_grid(2, (3, 4), (2, 3), numpy.float64)

    def forward(self, inputs, device):
        return F.spatial_transformer_sampler(*inputs),

    def forward_expected(self, inputs):
        return _reference(*inputs).astype(numpy.float32),


def test_identity_grid_reproduces_the_image():
    x = numpy.random.rand(2, 3, 4, 5).astype(numpy.float32)
    gx, gy = numpy.meshgrid(numpy.linspace(-1, 1, 5), numpy.linspace(-1, 1, 4))
    grid = numpy.broadcast_to(numpy.stack([gx, gy]), (2, 2, 4, 5)).astype(numpy.float32)
    numpy.testing.assert_allclose(F.spatial_transformer_sampler(x, grid).array, x, atol=1e-6)


def test_with_spatial_transformer_grid():
    x = numpy.random.rand(1, 1, 3, 3).astype(numpy.float32)
    theta = numpy.array([[[-1, 0, 0], [0, 1, 0]]], numpy.float32)   # mirror left-right
    y = F.spatial_transformer_sampler(x, F.spatial_transformer_grid(theta, (3, 3)))
    numpy.testing.assert_allclose(y.array, x[..., ::-1], atol=1e-6)


def test_far_away_points_read_zero():
    x = numpy.ones((1, 2, 3, 3), numpy.float32)
    grid = numpy.array([50., -70., 1e30, -1e30, -2.1, 1.5], numpy.float32)
    grid = numpy.stack([grid, grid[::-1]]).reshape(1, 2, 2, 3)
    numpy.testing.assert_array_equal(F.spatial_transformer_sampler(x, grid).array, 0)


def test_use_cudnn_argument_is_rejected():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    grid = numpy.zeros((1, 2, 1, 1), numpy.float32)
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_sampler(x, grid, use_cudnn=True)


@pytest.mark.parametrize('x, grid', [
    (numpy.zeros((1, 1, 2, 2), 'i'), numpy.zeros((1, 2, 1, 1), 'f')),   # int image
    (numpy.zeros((1, 1, 2, 2), 'f'), numpy.zeros((1, 2, 1, 1), 'i')),   # int grid
    (numpy.zeros((1, 2, 2), 'f'), numpy.zeros((1, 2, 1, 1), 'f')),      # image not 4-D
    (numpy.zeros((1, 1, 2, 2), 'f'), numpy.zeros((1, 3, 1, 1), 'f')),   # 3 coordinates
    (numpy.zeros((2, 1, 2, 2), 'f'), numpy.zeros((1, 2, 1, 1), 'f')),   # batch mismatch
])
def test_invalid_inputs(x, grid):
    with pytest.raises(type_check.InvalidType, match='SpatialTransformerSampler'):
        F.spatial_transformer_sampler(x, grid)
