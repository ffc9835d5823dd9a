import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _reference


def _max(window, axes):
    return window.max(axis=axes)


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 3, 5, 4), 'ksize': 3, 'stride': 2, 'pad': 1},
        {'shape': (2, 3, 4, 6), 'ksize': 2, 'stride': None, 'pad': 0},
        {'shape': (1, 2, 5, 3), 'ksize': (3, 2), 'stride': (2, 1), 'pad': (1, 0)},
        {'shape': (1, 1, 1, 3), 'ksize': (1, 2), 'stride': 1, 'pad': 0},
        {'shape': (2, 2, 7), 'ksize': 3, 'stride': 2, 'pad': 1},
        {'shape': (1, 2, 3, 4, 3), 'ksize': 2, 'stride': 2, 'pad': (0, 1, 0)},
    ],
    testing.product({
        'cover_all': [True, False],
        'dtype': [numpy.float16, numpy.float32, numpy.float64],
    }),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMaxPoolingND(testing.FunctionTestCase):

    def generate_inputs(self):
        return _reference.distinct(self.shape, self.dtype),

    def _args(self):
        nd = len(self.shape) - 2
        tup = lambda v: v if isinstance(v, tuple) else (v,) * nd
        stride = self.ksize if self.stride is None else self.stride
        return tup(self.ksize), tup(stride), tup(self.pad)

    def forward(self, inputs, device):
        func = {1: F.max_pooling_1d, 2: F.max_pooling_2d, 3: F.max_pooling_3d}
        f = func[len(self.shape) - 2] if self.shape[0] == 1 else F.max_pooling_nd
        return f(inputs[0], self.ksize, self.stride, self.pad, self.cover_all),

    def forward_expected(self, inputs):
        k, s, p = self._args()
        return _reference.pool(inputs[0], k, s, p, self.cover_all, _max),


@pytest.mark.parametrize('cover_all', [True, False])
def test_return_indices(cover_all):
    x = _reference.distinct((2, 3, 5, 6), numpy.float32)
    y, idx = F.max_pooling_2d(x, 3, 2, 1, cover_all=cover_all, return_indices=True)
    assert isinstance(y, chainer.Variable) and isinstance(idx, numpy.ndarray)
    assert idx.dtype == numpy.int64 and idx.shape == y.shape
    numpy.testing.assert_array_equal(
        idx, _reference.window_argmax(x, (3, 3), (2, 2), (1, 1), cover_all))


def test_double_backward_uses_the_saved_indexes():
    # The second-order graph picks ggx at the first pass's winners.
    x = chainer.Variable(_reference.distinct((1, 1, 4, 4), numpy.float64))
    y = F.max_pooling_2d(x, 2)
    gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    assert type(gx.creator_node).__name__ == 'MaxPoolingNDGrad'
    ggx, = chainer.grad([F.sum(gx)], [x])
    assert ggx.array.sum() == pytest.approx(8.0)     # d/dx of sum(2 * y) picks 4 winners


def test_left_inverse_of_unpooling():
    x = numpy.arange(25, dtype=numpy.float32).reshape(1, 1, 5, 5)
    for cover_all in (True, False):
        y = F.unpooling_2d(x, 3, 3, 0, None, cover_all)
        numpy.testing.assert_array_equal(F.max_pooling_2d(y, 3, 3, 0, cover_all).array, x)


def test_module_path_and_classes():
    from chainer.functions.pooling import max_pooling_nd
    assert F.max_pooling_2d is max_pooling_nd.max_pooling_2d
    assert issubclass(max_pooling_nd.MaxPoolingNDWithIndexes, chainer.FunctionNode)


@pytest.mark.parametrize('f, shape', [
    (F.max_pooling_2d, (2, 3, 4)),
    (F.max_pooling_1d, (2, 3, 4, 4)),
    (F.max_pooling_3d, (2, 3, 4, 4)),
])
def test_wrong_spatial_ndim(f, shape):
    with pytest.raises(ValueError, match=f.__name__ + '.*spatial axes'):
        f(numpy.zeros(shape, numpy.float32), 2)


def test_kernel_larger_than_padded_input():
    x = numpy.zeros((1, 1, 5, 4), numpy.float32)
    assert F.max_pooling_2d(x, 7).shape == (1, 1, 1, 1)     # cover_all rounds up
    with pytest.raises(AssertionError, match=r'max_pooling_2d.*\(5, 4\).*ksize \(7, 7\)'):
        F.max_pooling_2d(x, 7, cover_all=False)


def test_integer_input():
    with pytest.raises(type_check.InvalidType, match='MaxPoolingND'):
        F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.int32), 2)
