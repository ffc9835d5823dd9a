import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _roi_reference

# (y_min, x_min, y_max, x_max): inside, past the image edge, a single point, fractional.
ROIS = [[1, 1, 6, 6], [2, 6, 13, 9.5], [-2, -1.5, 4, 3], [3, 3, 3, 3], [1.1, 2.2, 3.3, 4.4]]
INDICES = [0, 2, 1, 0, 2]


@testing.parameterize(*testing.product({
    'sampling_ratio': [None, 2, (None, 3), (numpy.int32(1), 2)],
    'outsize': [(3, 2), 4],
    'spatial_scale': [0.6, 1.0],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestROIAverageAlign2D(testing.FunctionTestCase):

    skip_double_backward_test = True     # an old-style Function, as in Chainer

    def setUp(self):
        self.rois = numpy.array(ROIS, numpy.float32)
        self.roi_indices = numpy.array(INDICES, numpy.int32)
        self.check_backward_options = {'atol': 5e-4, 'rtol': 5e-3}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 2, 12, 8)).astype(numpy.float32),

    def forward(self, inputs, device):
        # The numerical gradient runs in float64; this function takes float32 only.
        x = F.cast(inputs[0], numpy.float32)
        y = F.roi_average_align_2d(x, device.send(self.rois), device.send(self.roi_indices),
                                   self.outsize, self.spatial_scale, self.sampling_ratio)
        return F.cast(y, inputs[0].dtype),

    def forward_expected(self, inputs):
        out = self.outsize if isinstance(self.outsize, tuple) else (self.outsize,) * 2
        ratio = self.sampling_ratio
        ratio = ratio if isinstance(ratio, tuple) else (ratio, ratio)
        return _roi_reference.roi_align(inputs[0], self.rois, self.roi_indices, out,
                                        self.spatial_scale, ratio, 'average'),


def test_separable_form_matches_dense_interpolation_on_many_rois():
    x = numpy.random.rand(2, 3, 9, 7).astype(numpy.float32)
    rng = numpy.random.RandomState(0)
    start = rng.uniform(-2, 8, (20, 2))
    rois = numpy.concatenate([start, start + rng.uniform(0, 6, (20, 2))], 1).astype(numpy.float32)
    idx = rng.randint(0, 2, 20).astype(numpy.int32)
    y = F.roi_average_align_2d(x, rois, idx, (2, 3), 0.8).array
    expected = _roi_reference.roi_align(x, rois, idx, (2, 3), 0.8, (None, None), 'average')
    numpy.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('kwargs, error', [
    ({'sampling_ratio': 0}, TypeError),
    ({'sampling_ratio': 1.5}, TypeError),
    ({'outsize': 2.5}, TypeError),
    ({'spatial_scale': 'a'}, TypeError),
    ({'spatial_scale': -1.0}, TypeError),
])
def test_bad_arguments(kwargs, error):
    args = {'outsize': 2, 'spatial_scale': 1.0, **kwargs}
    with pytest.raises(error, match='roi_average_align_2d'):
        F.roi_average_align_2d(numpy.zeros((1, 1, 4, 4), numpy.float32),
                               numpy.zeros((1, 4), numpy.float32),
                               numpy.zeros(1, numpy.int32), **args)


def test_float32_only_and_batch_range():
    with pytest.raises(type_check.InvalidType, match='ROIAverageAlign2D'):
        F.roi_average_align_2d(numpy.zeros((1, 1, 4, 4)), numpy.zeros((1, 4)),
                               numpy.zeros(1, numpy.int32), 2, 1.0)
    with pytest.raises(IndexError, match=r'roi_average_align_2d.*\[0, 1\)'):
        F.roi_average_align_2d(numpy.zeros((1, 1, 4, 4), numpy.float32),
                               numpy.zeros((1, 4), numpy.float32),
                               numpy.ones(1, numpy.int32), 2, 1.0)


def test_old_style_function():
    from chainer.functions.pooling.roi_average_align_2d import ROIAverageAlign2D
    assert issubclass(ROIAverageAlign2D, chainer.Function)
