import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check
from chainer_tests.functions_tests.pooling_tests import _reference


def _tuple(v, nd):
    return v if isinstance(v, tuple) else (v,) * nd


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (2, 3, 5, 4), 'ksize': 3, 'stride': 2, 'pad': 1},
        {'shape': (2, 3, 4, 6), 'ksize': 2, 'stride': None, 'pad': 0},
        {'shape': (1, 2, 5, 3), 'ksize': (3, 2), 'stride': (2, 1), 'pad': (1, 1)},
        {'shape': (1, 2, 7), 'ksize': 3, 'stride': 2, 'pad': 1},
        {'shape': (1, 2, 3, 4, 3), 'ksize': 2, 'stride': 1, 'pad': (0, 1, 1)},
    ],
    testing.product({
        'pad_value': [0, None],
        'dtype': [numpy.float16, numpy.float32, numpy.float64],
    }),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAveragePoolingND(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shape).astype(self.dtype),

    def forward(self, inputs, device):
        nd = len(self.shape) - 2
        f = {1: F.average_pooling_1d, 3: F.average_pooling_3d}.get(nd, F.average_pooling_nd)
        return f(inputs[0], self.ksize, self.stride, self.pad, self.pad_value),

    def forward_expected(self, inputs):
        nd = len(self.shape) - 2
        k = _tuple(self.ksize, nd)
        s = k if self.stride is None else _tuple(self.stride, nd)
        p = _tuple(self.pad, nd)
        if self.pad_value is None:
            def mean(w, axes):
                return w.astype(numpy.float64).mean(axis=axes)
        else:
            def mean(w, axes):
                return w.astype(numpy.float64).sum(axis=axes) / numpy.prod(k)
        return _reference.pool(inputs[0], k, s, p, False, mean),


def test_pad_value_must_be_zero_or_none():
    with pytest.raises(ValueError, match='pad_value must be 0 or None, got 1'):
        F.average_pooling_nd(numpy.zeros((1, 1, 4, 4), numpy.float32), 2, pad_value=1)


def test_double_backward_class():
    x = chainer.Variable(numpy.random.rand(1, 2, 4, 4))
    gx, = chainer.grad([F.sum(F.average_pooling_nd(x, 3, 1, 1, pad_value=None) ** 2)], [x],
                       enable_double_backprop=True)
    assert type(gx.creator_node).__name__ == 'AveragePoolingNDGrad'


@pytest.mark.parametrize('f, shape', [
    (F.average_pooling_1d, (2, 3, 4, 4)), (F.average_pooling_3d, (2, 3, 4, 4))])
def test_wrong_spatial_ndim(f, shape):
    with pytest.raises(ValueError, match=f.__name__):
        f(numpy.zeros(shape, numpy.float32), 2)


def test_kernel_larger_than_padded_input():
    with pytest.raises(AssertionError, match=r'average_pooling_2d.*\(3, 3\)'):
        F.average_pooling_nd(numpy.zeros((1, 1, 3, 3), numpy.float32), 6, pad=1)


def test_integer_input():
    with pytest.raises(type_check.InvalidType, match='AveragePoolingND'):
        F.average_pooling_nd(numpy.zeros((1, 1, 4, 4), numpy.int32), 2)
