import numpy
import pytest

import chainer.functions as F
from chainer import testing
from chainer.functions.connection import shift
from chainer.utils import type_check


def _reference(x, ksize, dilate):
    # Channel c reads x[i + sy, j + sx] (zero outside), its group's offset taken from the
    # window's taps in raster order from the far corner, with the centre tap moved last.
    kh, kw = ksize
    dy, dx = dilate
    taps = [(kh // 2 - t // kw, kw // 2 - t % kw) for t in range(kh * kw)]
    centre = len(taps) // 2
    taps[centre], taps[-1] = taps[-1], taps[centre]
    n, c, h, w = x.shape
    size = c // len(taps)
    y = numpy.zeros_like(x)
    for ch in range(c):
        ty, tx = taps[min(ch // size, len(taps) - 1)]
        sy, sx = ty * dy, tx * dx
        for i in range(h):
            for j in range(w):
                if 0 <= i + sy < h and 0 <= j + sx < w:
                    y[:, ch, i, j] = x[:, ch, i + sy, j + sx]
    return y


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 9, 4, 5), 'ksize': (3, 3), 'dilate': (1, 1)},
        {'shape': (1, 20, 3, 3), 'ksize': (3, 3), 'dilate': (1, 1)},   # 2 per group + rest
        {'shape': (2, 17, 5, 4), 'ksize': (3, 3), 'dilate': (2, 2)},
        {'shape': (1, 16, 7, 12), 'ksize': (3, 5), 'dilate': (1, 2)},
        {'shape': (1, 25, 3, 3), 'ksize': (5, 5), 'dilate': (1, 1)},   # some shifted out
        {'shape': (2, 3, 1, 4), 'ksize': (1, 1), 'dilate': (1, 1)},
    ],
    [{'dtype': numpy.float16}, {'dtype': numpy.float32}, {'dtype': numpy.float64}],
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestShift(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.shift(inputs[0], ksize=self.ksize, dilate=self.dilate),

    def forward_expected(self, inputs):
        return _reference(inputs[0], self.ksize, self.dilate),


def test_int_arguments_mean_square_windows():
    x = numpy.random.rand(1, 18, 5, 5).astype(numpy.float32)
    numpy.testing.assert_array_equal(F.shift(x, 3, 2).array, _reference(x, (3, 3), (2, 2)))


def test_group_order():
    x = numpy.arange(9 * 9, dtype=numpy.float32).reshape(1, 9, 3, 3)
    y = F.shift(x).array
    assert y[0, 0, 0, 0] == x[0, 0, 1, 1]       # first group: down-right source
    assert y[0, 4, 1, 1] == x[0, 4, 0, 0]       # centre group takes the last tap
    numpy.testing.assert_array_equal(y[0, 8], x[0, 8])


@pytest.mark.parametrize('ksize, match', [(2, 'kh must be odd'), ((3, 4), 'kw must be odd')])
def test_even_kernel(ksize, match):
    with pytest.raises(ValueError, match=match):
        F.shift(numpy.ones((1, 16, 3, 3), numpy.float32), ksize=ksize)


@pytest.mark.parametrize('x, match', [
    (numpy.ones((1, 4, 3, 3), numpy.float32), r'x.shape\[1\] >= 9'),
    (numpy.ones((9, 3, 3), numpy.float32), 'x.ndim == 4'),
    (numpy.ones((1, 9, 3, 3), numpy.int32), 'x.dtype.kind == f'),
])
def test_invalid_inputs(x, match):
    with pytest.raises(type_check.InvalidType, match='Shift'):
        F.shift(x)
    with pytest.raises(type_check.InvalidType, match=match):
        F.shift(x)


def test_module_path():
    assert F.shift is shift.shift
    assert issubclass(shift.Shift, shift.function_node.FunctionNode)
