import math

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer_tests.functions_tests.pooling_tests import _reference


def _max(window, axes):
    return window.max(axis=axes)


@testing.parameterize(*testing.product({
    # Sizes whose pyramid windows all hold a pixel (when a level has more bins
    # than the padding can spread, a window lies wholly in it and gives -inf).
    'shape': [(2, 3, 9, 8), (1, 2, 6, 7), (1, 1, 4, 4)],
    'pyramid_height': [1, 2, 3],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSpatialPyramidPooling2D(testing.FunctionTestCase):

    def generate_inputs(self):
        return _reference.distinct(self.shape, self.dtype),

    def forward(self, inputs, device):
        return F.spatial_pyramid_pooling_2d(inputs[0], self.pyramid_height, 'max'),

    def forward_expected(self, inputs):
        x, = inputs
        n, c, h, w = x.shape
        levels = []
        for level in range(self.pyramid_height):
            bins = 2 ** level
            k = (math.ceil(h / bins), math.ceil(w / bins))
            pad = ((k[0] * bins - h) // 2, (k[1] * bins - w) // 2)
            levels.append(_reference.pool(x, k, k, pad, True, _max).reshape(n, -1, 1, 1))
        return numpy.concatenate(levels, axis=1),


def test_output_length_does_not_depend_on_the_image_size():
    a = F.spatial_pyramid_pooling_2d(numpy.random.rand(2, 3, 16, 16), 3, 'max')
    b = F.spatial_pyramid_pooling_2d(numpy.random.rand(2, 3, 13, 21), 3, 'max')
    assert a.shape == b.shape == (2, 3 * 21, 1, 1)


@pytest.mark.parametrize('pooling', [None, 'average', 'foo'])
def test_only_max(pooling):
    with pytest.raises(ValueError, match='spatial_pyramid_pooling_2d.*pooling'):
        F.spatial_pyramid_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32), 2, pooling)
