import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _reference


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 3, 5, 4), 'ksize': 3, 'stride': 2, 'pad': 1},
        {'shape': (2, 3, 4, 6), 'ksize': 2, 'stride': None, 'pad': 0},
        {'shape': (1, 2, 5, 3), 'ksize': (3, 2), 'stride': (2, 1), 'pad': (1, 1)},
        {'shape': (1, 1, 1, 3), 'ksize': (1, 3), 'stride': 1, 'pad': (0, 1)},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAveragePooling2D(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.average_pooling_2d(inputs[0], self.ksize, self.stride, self.pad),

    def forward_expected(self, inputs):
        def pair(v):
            return v if isinstance(v, tuple) else (v, v)
        k = pair(self.ksize)
        s = k if self.stride is None else pair(self.stride)

        def mean(w, axes):    # padding counts as zeros: divide by the window size
            return w.astype(numpy.float64).sum(axis=axes) / (k[0] * k[1])
        return _reference.pool(inputs[0], k, s, pair(self.pad), False, mean),


def test_matches_nd_with_zero_padding():
    x = numpy.random.rand(2, 3, 7, 5).astype(numpy.float32)
    numpy.testing.assert_allclose(F.average_pooling_2d(x, 3, 2, 1).array,
                                  F.average_pooling_nd(x, 3, 2, 1).array, rtol=1e-6)


def test_classes():
    from chainer.functions.pooling import average_pooling_2d, pooling_2d
    f = average_pooling_2d.AveragePooling2D(3, 2, 1)
    assert isinstance(f, pooling_2d.Pooling2D)
    assert (f.kh, f.kw, f.sy, f.sx, f.ph, f.pw, f.cover_all) == (3, 3, 2, 2, 1, 1, True)
    x = chainer.Variable(numpy.random.rand(1, 1, 4, 4))
    gx, = chainer.grad([F.sum(F.average_pooling_2d(x, 2) ** 2)], [x],
                       enable_double_backprop=True)
    assert type(gx.creator_node).__name__ == 'AveragePooling2DGrad'


@pytest.mark.parametrize('shape, dtype', [((1, 4, 4), numpy.float32),
                                          ((1, 1, 4, 4), numpy.int32)])
def test_invalid(shape, dtype):
    with pytest.raises(type_check.InvalidType, match='AveragePooling2D'):
        F.average_pooling_2d(numpy.zeros(shape, dtype), 2)


def test_numpy_integer_and_list_sizes():
    x = numpy.random.rand(1, 1, 4, 4).astype(numpy.float32)
    expected = F.average_pooling_2d(x, 2, 1).array
    numpy.testing.assert_array_equal(
        F.average_pooling_2d(x, numpy.int32(2), numpy.int64(1)).array, expected)
    numpy.testing.assert_array_equal(F.average_pooling_2d(x, [2, 2], [1, 1]).array, expected)
