import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _roi_reference

# (y_min, x_min, y_max, x_max); each bin keeps at least one sample inside the image.
ROIS = [[1, 1, 6, 6], [2, 4, 10, 7.5], [-0.5, -0.5, 4, 3], [1.1, 2.2, 3.3, 4.4]]
INDICES = [0, 2, 1, 2]


@testing.parameterize(*testing.product({
    'sampling_ratio': [None, 2, (1, 3)],
    'outsize': [(3, 2), 2],
    'spatial_scale': [0.6, 1.0],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestROIMaxAlign2D(testing.FunctionTestCase):

    skip_double_backward_test = True     # an old-style Function, as in Chainer

    def setUp(self):
        self.rois = numpy.array(ROIS, numpy.float32)
        self.roi_indices = numpy.array(INDICES, numpy.int32)
        self.check_backward_options = {'atol': 5e-4, 'rtol': 5e-3}

    def generate_inputs(self):
        # A tilted plane per image and channel, in a random direction. Distinct pixels are not
        # enough: their interpolated samples can nearly tie for a bin's max, within the
        # numerical gradient's step. On a plane, interpolation is exact, and the bin's corner
        # sample in the rising direction leads every other sample by at least 0.02 times their
        # spacing, well above that step.
        n, c, h, w = 3, 2, 12, 8
        rows = numpy.random.choice([-0.1, 0.1], (n, c, 1, 1)) * numpy.arange(h)[:, None]
        cols = numpy.random.choice([-0.02, 0.02], (n, c, 1, 1)) * numpy.arange(w)
        return (rows + cols).astype(numpy.float32),

    def forward(self, inputs, device):
        x = F.cast(inputs[0], numpy.float32)    # float32 only; numerical grads run in float64
        y = F.roi_max_align_2d(x, device.send(self.rois), device.send(self.roi_indices),
                               self.outsize, self.spatial_scale, self.sampling_ratio)
        return F.cast(y, inputs[0].dtype),

    def forward_expected(self, inputs):
        out = self.outsize if isinstance(self.outsize, tuple) else (self.outsize,) * 2
        ratio = self.sampling_ratio
        ratio = ratio if isinstance(ratio, tuple) else (ratio, ratio)
        return _roi_reference.roi_align(inputs[0], self.rois, self.roi_indices, out,
                                        self.spatial_scale, ratio, 'max'),


def test_bins_without_samples_give_minus_infinity_and_no_gradient():
    x = chainer.Variable(numpy.random.rand(1, 1, 4, 4).astype(numpy.float32))
    rois = numpy.array([[10, 10, 12, 12]], numpy.float32)
    y = F.roi_max_align_2d(x, rois, numpy.zeros(1, numpy.int32), 2, 1.0)
    assert numpy.isneginf(y.array).all()
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, 0)


def test_invalid():
    with pytest.raises(type_check.InvalidType, match='ROIMaxAlign2D'):
        F.roi_max_align_2d(numpy.zeros((1, 1, 4, 4), numpy.float16),
                           numpy.zeros((1, 4), numpy.float16),
                           numpy.zeros(1, numpy.int32), 2, 1.0)
    with pytest.raises(TypeError, match='roi_max_align_2d: sampling_ratio'):
        F.roi_max_align_2d(numpy.zeros((1, 1, 4, 4), numpy.float32),
                           numpy.zeros((1, 4), numpy.float32),
                           numpy.zeros(1, numpy.int32), 2, 1.0, sampling_ratio=(1, 0))
