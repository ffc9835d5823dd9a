import math

import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _source_coords(in_size, out_size, mode, align_corners):
    # One source coordinate per output index, written out case by case.
    coords = []
    for o in range(out_size):
        if align_corners:
            c = 0.0 if out_size == 1 else o * (in_size - 1) / (out_size - 1)
            if mode == 'nearest':
                c = float(round(c))   # Python rounds halves to even, like numpy.round
        elif mode == 'bilinear':
            c = min(max((o + 0.5) * in_size / out_size - 0.5, 0.0), in_size - 1)
        else:
            c = min(math.floor(o * in_size / out_size), in_size - 1)
        coords.append(c)
    return coords


def _reference(x, out_shape, mode, align_corners):
    n, c, h, w = x.shape
    ys = _source_coords(h, out_shape[0], mode, align_corners)
    xs = _source_coords(w, out_shape[1], mode, align_corners)
    x = x.astype(numpy.float64)
    out = numpy.empty((n, c) + tuple(out_shape))
    for i, v in enumerate(ys):
        v0 = math.floor(v)
        v1 = min(v0 + 1, h - 1)
        for j, u in enumerate(xs):
            u0 = math.floor(u)
            u1 = min(u0 + 1, w - 1)
            fv, fu = v - v0, u - u0
            out[:, :, i, j] = ((1 - fv) * ((1 - fu) * x[:, :, v0, u0] + fu * x[:, :, v0, u1])
                               + fv * ((1 - fu) * x[:, :, v1, u0] + fu * x[:, :, v1, u1]))
    return out


@testing.parameterize(*testing.product_dict(
    [
        {'in_shape': (2, 3, 4, 5), 'out_shape': (6, 3)},   # up and down
        {'in_shape': (1, 2, 4, 5), 'out_shape': (4, 5)},   # same size
        {'in_shape': (1, 1, 3, 3), 'out_shape': (1, 1)},
        {'in_shape': (1, 1, 1, 2), 'out_shape': (3, 5)},
        {'in_shape': (1, 2, 2, 260), 'out_shape': (3, 7)},  # the gather path
    ],
    testing.product({
        'mode': ['bilinear', 'nearest'],
        'align_corners': [True, False],
        'dtype': [numpy.float16, numpy.float32, numpy.float64],
    }),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestResizeImages(testing.FunctionTestCase):

    # float16: each gradient sums bilinear weights rounded to float16
    tolerances = {numpy.float16: (None, (1e-2, 5e-2))}

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.in_shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.resize_images(inputs[0], self.out_shape, mode=self.mode,
                               align_corners=self.align_corners),

    def forward_expected(self, inputs):
        y = _reference(inputs[0], self.out_shape, self.mode, self.align_corners)
        return y.astype(self.dtype),


def test_align_corners_false_matches_opencv():
    # cv2.resize(x, (4, 4), interpolation=cv2.INTER_LINEAR) on a 2x2 ramp.
    x = numpy.array([[[[0, 1], [2, 3]]]], numpy.float32)
    y = F.resize_images(x, (4, 4), align_corners=False).array[0, 0]
    expected = numpy.array([[0, .25, .75, 1], [.5, .75, 1.25, 1.5],
                            [1.5, 1.75, 2.25, 2.5], [2, 2.25, 2.75, 3]], numpy.float32)
    numpy.testing.assert_allclose(y, expected)


def test_align_corners_keeps_corners():
    x = numpy.random.rand(1, 1, 3, 4).astype(numpy.float32)
    y = F.resize_images(x, (7, 9)).array
    numpy.testing.assert_allclose(y[0, 0, [0, 0, -1, -1], [0, -1, 0, -1]],
                                  x[0, 0, [0, 0, -1, -1], [0, -1, 0, -1]], rtol=1e-6)


def test_nearest_copies_values_exactly():
    x = numpy.array([[[[1, numpy.inf], [3, 4]]]], numpy.float32)
    y = F.resize_images(x, (4, 4), mode='nearest', align_corners=False).array[0, 0]
    numpy.testing.assert_array_equal(y[:2, 2:], numpy.inf)
    assert not numpy.isnan(y).any()


def test_mode_and_align_corners_are_keyword_only():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    with pytest.raises(TypeError):
        F.resize_images(x, (3, 3), 'nearest')


def test_invalid_mode():
    with pytest.raises(ValueError):
        F.resize_images(numpy.zeros((1, 1, 2, 2), 'f'), (3, 3), mode='bicubic')


@pytest.mark.parametrize('x', [
    numpy.zeros((1, 2, 2), numpy.float32),      # not 4-D
    numpy.zeros((1, 1, 2, 2), numpy.int32),     # not float
])
def test_invalid_inputs(x):
    with pytest.raises(type_check.InvalidType, match='ResizeImages'):
        F.resize_images(x, (3, 3))
