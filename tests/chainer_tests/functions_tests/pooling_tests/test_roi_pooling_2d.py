import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _reference
from chainer_tests.functions_tests.pooling_tests import _roi_reference


@testing.parameterize(*testing.product({
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
    'outsize': [(3, 4), (5, 2)],
    'spatial_scale': [0.6, 1.0],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestROIPooling2D(testing.FunctionTestCase):


    # float16: the second derivative goes through rounded bin boundaries
    tolerances = {numpy.float16: (None, None, (5e-3, 5e-2))}

    def setUp(self):
        # (batch, x_min, y_min, x_max, y_max); one ROI reaches past the image,
        # one is a single pixel. Scaled edges stay away from .5, so rounding
        # agrees in every dtype (the numerical gradient runs in float64).
        self.rois = numpy.array([
            [0, 1, 1, 6, 6],
            [1, 2, 3, 7, 11],
            [1, 0, 1, 5, 10],
            [0, 3, 3, 3, 3],
            [0, -2, 6, 9, 14],
        ], dtype=self.dtype)

    def generate_inputs(self):
        return _reference.distinct((2, 3, 12, 8), self.dtype),

    def forward(self, inputs, device):
        rois = device.send(self.rois.astype(inputs[0].dtype))
        return F.roi_pooling_2d(inputs[0], rois, *self.outsize, self.spatial_scale),

    def forward_expected(self, inputs):
        rois = self.rois[:, [2, 1, 4, 3]]
        return _roi_reference.roi_pool(inputs[0], rois, self.rois[:, 0].astype(int),
                                       self.outsize, self.spatial_scale, 1, numpy.max, 0),


def test_empty_bins_give_zero_and_no_gradient():
    x = chainer.Variable(numpy.random.rand(1, 1, 4, 4).astype(numpy.float32))
    y = F.roi_pooling_2d(x, numpy.array([[0, 10, 10, 12, 12]], numpy.float32), 2, 2, 1.0)
    numpy.testing.assert_array_equal(y.array, 0)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, 0)


def test_batch_index_out_of_range():
    x = numpy.zeros((2, 1, 4, 4), numpy.float32)
    with pytest.raises(IndexError, match=r'roi_pooling_2d.*\[0, 2\).*\[3\]'):
        F.roi_pooling_2d(x, numpy.array([[3, 0, 0, 1, 1]], numpy.float32), 2, 2, 1.0)


@pytest.mark.parametrize('x, rois', [
    (numpy.zeros((1, 1, 4, 4), numpy.float32), numpy.zeros((1, 4), numpy.float32)),
    (numpy.zeros((1, 1, 4, 4), numpy.float32), numpy.zeros((1, 5), numpy.float64)),
    (numpy.zeros((1, 4, 4), numpy.float32), numpy.zeros((1, 5), numpy.float32)),
])
def test_invalid_types(x, rois):
    with pytest.raises(type_check.InvalidType, match='ROIPooling2D'):
        F.roi_pooling_2d(x, rois, 2, 2, 1.0)
