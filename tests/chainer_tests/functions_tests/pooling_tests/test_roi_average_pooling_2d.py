import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _roi_reference

ROIS = [[1, 1, 7, 7], [2, 5, 12, 8], [1, 3, 11, 6.5], [3, 3, 3, 3], [-3, -2, 14, 5]]
INDICES = [0, 1, 1, 0, 1]


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'outsize': [2, (3, 4)],
    'spatial_scale': [1.0, 0.6],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestROIAveragePooling2D(testing.FunctionTestCase):

    skip_double_backward_test = True     # an old-style Function, as in Chainer

    def setUp(self):
        self.rois = numpy.array(ROIS, self.dtype)
        self.roi_indices = numpy.array(INDICES, numpy.int32)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 12, 8)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.roi_average_pooling_2d(inputs[0], device.send(self.rois.astype(inputs[0].dtype)),
                                        device.send(self.roi_indices), self.outsize,
                                        self.spatial_scale),

    def forward_expected(self, inputs):
        out = self.outsize if isinstance(self.outsize, tuple) else (self.outsize,) * 2

        def mean(a, axis):
            return a.astype(numpy.float64).mean(axis=axis)
        return _roi_reference.roi_pool(inputs[0], self.rois, self.roi_indices, out,
                                       self.spatial_scale, 0, mean, 0),


def test_batch_index_out_of_range():
    x = numpy.zeros((2, 1, 4, 4), numpy.float32)
    with pytest.raises(IndexError, match=r'roi_average_pooling_2d.*\[-1\]'):
        F.roi_average_pooling_2d(x, numpy.zeros((1, 4), numpy.float32),
                                 numpy.array([-1], numpy.int32), 2, 1.0)


def test_invalid_types():
    with pytest.raises(type_check.InvalidType, match='ROIAveragePooling2D'):
        F.roi_average_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.int32),
                                 numpy.zeros((1, 4), numpy.int32),
                                 numpy.zeros(1, numpy.int32), 2, 1.0)


def test_old_style_function():
    from chainer.functions.pooling.roi_average_pooling_2d import ROIAveragePooling2D
    assert issubclass(ROIAveragePooling2D, chainer.Function)
