import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _reference
from chainer_tests.functions_tests.pooling_tests import _roi_reference

# (y_min, x_min, y_max, x_max), each at least a pixel per bin, so no bin is empty.
ROIS = [[1, 1, 7, 7], [2, 5, 12, 8], [1, 3, 11, 6.75], [0.25, 0, 12, 8]]
INDICES = [0, 1, 1, 0]


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'outsize': [2, (3, 2)],
    'spatial_scale': [1.0, 0.5, numpy.float32(0.5)],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestROIMaxPooling2D(testing.FunctionTestCase):

    skip_double_backward_test = True     # an old-style Function, as in Chainer

    def setUp(self):
        self.rois = numpy.array(ROIS, self.dtype) / self.spatial_scale
        self.rois = self.rois.astype(self.dtype)
        self.roi_indices = numpy.array(INDICES, numpy.int32)

    def generate_inputs(self):
        return _reference.distinct((2, 3, 12, 8), self.dtype),

    def forward(self, inputs, device):
        return F.roi_max_pooling_2d(inputs[0], device.send(self.rois.astype(inputs[0].dtype)),
                                    device.send(self.roi_indices), self.outsize,
                                    self.spatial_scale),

    def forward_expected(self, inputs):
        out = self.outsize if isinstance(self.outsize, tuple) else (self.outsize,) * 2
        return _roi_reference.roi_pool(inputs[0], self.rois, self.roi_indices, out,
                                       self.spatial_scale, 0, numpy.max, -numpy.inf),


def test_empty_bins_give_minus_infinity():
    x = numpy.random.rand(1, 1, 4, 4).astype(numpy.float32)
    rois = numpy.array([[10, 10, 12, 12], [0, 0, 4, 4]], numpy.float32)
    y = F.roi_max_pooling_2d(x, rois, numpy.zeros(2, numpy.int32), 2, 1.0).array
    assert numpy.isneginf(y[0]).all() and numpy.isfinite(y[1]).all()


def test_batch_index_out_of_range():
    x = numpy.zeros((2, 1, 4, 4), numpy.float32)
    with pytest.raises(IndexError, match=r'roi_max_pooling_2d.*\[0, 2\).*\[2\]'):
        F.roi_max_pooling_2d(x, numpy.zeros((1, 4), numpy.float32),
                             numpy.array([2], numpy.int32), 2, 1.0)


@pytest.mark.parametrize('outsize, scale', [(2.5, 1.0), (0, 1.0), (2, 'a'), (2, -1.0)])
def test_bad_arguments(outsize, scale):
    with pytest.raises(TypeError, match='roi_max_pooling_2d'):
        F.roi_max_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32),
                             numpy.zeros((1, 4), numpy.float32),
                             numpy.zeros(1, numpy.int32), outsize, scale)


@pytest.mark.parametrize('rois, indices', [
    (numpy.zeros((1, 5), numpy.float32), numpy.zeros(1, numpy.int32)),
    (numpy.zeros((1, 4), numpy.float32), numpy.zeros(1, numpy.int64)),
    (numpy.zeros((2, 4), numpy.float32), numpy.zeros(1, numpy.int32)),
    (numpy.zeros((1, 4), numpy.float64), numpy.zeros(1, numpy.int32)),
])
def test_invalid_types(rois, indices):
    with pytest.raises(type_check.InvalidType, match='ROIMaxPooling2D'):
        F.roi_max_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.float32), rois, indices, 2, 1.0)


def test_old_style_function():
    from chainer.functions.pooling.roi_max_pooling_2d import ROIMaxPooling2D
    assert issubclass(ROIMaxPooling2D, chainer.Function)
