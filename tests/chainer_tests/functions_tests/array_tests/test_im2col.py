import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.utils import conv
from chainer.utils import type_check


def _pair(v):
    return v if isinstance(v, tuple) else (v, v)


def im2col_reference(x, ksize, stride, pad, cover_all, dilate):
    # Direct loop over kernel taps and output positions.
    kh, kw = _pair(ksize)
    sy, sx = _pair(stride)
    ph, pw = _pair(pad)
    dy, dx = _pair(dilate)
    n, c, h, w = x.shape
    out_h = conv.get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    out_w = conv.get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    y = numpy.zeros((n, c, kh, kw, out_h, out_w), x.dtype)
    for j in range(kh):
        for i in range(kw):
            for oy in range(out_h):
                for ox in range(out_w):
                    iy = oy * sy - ph + j * dy
                    ix = ox * sx - pw + i * dx
                    if 0 <= iy < h and 0 <= ix < w:
                        y[:, :, j, i, oy, ox] = x[:, :, iy, ix]
    return y.reshape(n, c * kh * kw, out_h, out_w)


@testing.parameterize(*testing.product_dict(
    [
        {'ksize': 2, 'stride': 1, 'pad': 0, 'cover_all': False, 'dilate': 1},
        {'ksize': (2, 3), 'stride': (1, 2), 'pad': (1, 0), 'cover_all': False, 'dilate': 1},
        {'ksize': 3, 'stride': 2, 'pad': 1, 'cover_all': True, 'dilate': 1},
        {'ksize': 2, 'stride': 1, 'pad': 1, 'cover_all': False, 'dilate': (2, 1)},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestIm2Col(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 2, 4, 5)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.im2col(inputs[0], self.ksize, self.stride, self.pad, self.cover_all,
                        self.dilate),

    def forward_expected(self, inputs):
        return im2col_reference(inputs[0], self.ksize, self.stride, self.pad,
                                self.cover_all, self.dilate),


def test_channel_layout():
    x = numpy.arange(16, dtype=numpy.float32).reshape(1, 1, 4, 4)
    y = F.im2col(x, 2, stride=2)
    assert y.shape == (1, 4, 2, 2)
    numpy.testing.assert_array_equal(y.array[0, :, 0, 0], [0, 1, 4, 5])


@pytest.mark.parametrize('x', [
    numpy.zeros((1, 1, 4, 4), numpy.int32),
    numpy.zeros((1, 4, 4), numpy.float32),
])
def test_invalid(x):
    with pytest.raises(type_check.InvalidType, match='Im2Col'):
        F.im2col(x, 2)
