import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _distinct(shape, dtype):
    # Well separated values: no ties inside a group, so max is differentiable
    # (and the separation survives float16 rounding).
    size = int(numpy.prod(shape))
    x = numpy.random.permutation(size).reshape(shape) / max(size, 1) * 4 - 2
    return x.astype(dtype)


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (3, 6), 'pool_size': 2, 'axis': 1},
        {'shape': (2, 3, 4), 'pool_size': 3, 'axis': 1},
        {'shape': (2, 2, 6), 'pool_size': 3, 'axis': -1},
        {'shape': (4, 2), 'pool_size': 4, 'axis': 0},
        {'shape': (0, 4), 'pool_size': 2, 'axis': 1},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMaxout(testing.FunctionTestCase):

    def setUp(self):
        # finite differences must not reorder a group: keep eps below the gaps
        n = max(int(numpy.prod(self.shape)), 1)
        eps = min(1e-3, 1 / n)
        self.check_backward_options = {'eps': eps}
        self.check_double_backward_options = {'eps': eps}

    def generate_inputs(self):
        return _distinct(self.shape, self.dtype),

    def forward(self, inputs, device):
        return F.maxout(*inputs, pool_size=self.pool_size, axis=self.axis),

    def forward_expected(self, inputs):
        x, = inputs
        axis = self.axis % x.ndim
        shape = x.shape[:axis] + (x.shape[axis] // self.pool_size, self.pool_size) \
            + x.shape[axis + 1:]
        return x.reshape(shape).max(axis=axis + 1),


def test_ties_share_the_gradient_like_max():
    x = chainer.Variable(numpy.array([[1., 1., 0., 2.]], numpy.float32))
    y = F.maxout(x, 2)
    numpy.testing.assert_array_equal(y.array, [[1, 2]])
    F.sum(y).backward()
    numpy.testing.assert_array_equal(x.grad, [[1, 1, 0, 1]])


@pytest.mark.parametrize('pool_size, error', [(0, ValueError), (-2, ValueError),
                                              (1.5, TypeError)])
def test_invalid_pool_size(pool_size, error):
    with pytest.raises(error):
        F.maxout(numpy.ones((2, 4), numpy.float32), pool_size)


@pytest.mark.parametrize('x, pool_size, axis', [
    (numpy.ones((2, 4), numpy.int32), 2, 1),
    (numpy.ones((2, 5), numpy.float32), 2, 1),
    (numpy.ones((2, 4), numpy.float32), 2, 2),
])
def test_invalid_inputs(x, pool_size, axis):
    with pytest.raises(type_check.InvalidType, match='Maxout'):
        F.maxout(x, pool_size, axis)
