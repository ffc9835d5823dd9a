import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


@testing.parameterize(*testing.product_dict(
    [
        {'shape': (3,), 'indices': [2, 0, 1], 'axis': 0},
        {'shape': (3, 4), 'indices': [3, 1, 0, 2], 'axis': 1},
        {'shape': (3, 4), 'indices': [3, 1, 0, 2], 'axis': -1},
        {'shape': (0, 2), 'indices': [], 'axis': 0},
    ],
    testing.product({
        'dtype': [numpy.float16, numpy.float32, numpy.float64],
        'inv': [False, True],
    }),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestPermutate(testing.FunctionTestCase):

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        return x, numpy.array(self.indices, numpy.int32)

    def forward(self, inputs, device):
        x, indices = inputs
        return F.permutate(x, indices, self.axis, self.inv),

    def forward_expected(self, inputs):
        x, indices = inputs
        if self.inv:
            indices = numpy.argsort(indices)
        return numpy.take(x, indices, axis=self.axis),


def test_documented_example():
    x = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    indices = numpy.array([2, 0, 1], numpy.int32)
    numpy.testing.assert_array_equal(F.permutate(x, indices).array, [[4, 5], [0, 1], [2, 3]])
    numpy.testing.assert_array_equal(F.permutate(x, indices, inv=True).array,
                                     [[2, 3], [4, 5], [0, 1]])


def test_indices_get_no_gradient():
    x = chainer.Variable(numpy.ones(3, numpy.float32))
    indices = chainer.Variable(numpy.array([1, 2, 0], numpy.int32))
    F.sum(F.permutate(x, indices)).backward()
    assert indices.grad is None


@pytest.mark.parametrize('indices', [[0, 0, 1], [0, 1, 3], [-1, 0, 1]])
def test_not_a_permutation(indices):
    with pytest.raises(ValueError):
        F.permutate(numpy.zeros(3, numpy.float32), numpy.array(indices, numpy.int32))


@pytest.mark.parametrize('x, indices', [
    (numpy.zeros(3, 'f'), numpy.array([0, 1, 2], numpy.float32)),  # float indices
    (numpy.zeros(3, 'f'), numpy.array([[0, 1, 2]], numpy.int32)),  # 2-D indices
])
def test_indices_not_1d_int(x, indices):
    # ValueError, in Chainer's words
    with pytest.raises(ValueError, match='indices should be a one-dimensional int array'):
        F.permutate(x, indices)


@pytest.mark.parametrize('x, indices, axis', [
    (numpy.zeros(3, 'f'), numpy.array([0, 1], numpy.int32), 0),       # wrong length
    (numpy.zeros(3, 'f'), numpy.array([0, 1, 2], numpy.int32), 1),    # axis out of range
])
def test_invalid(x, indices, axis):
    with pytest.raises(type_check.InvalidType, match='Permutate'):
        F.permutate(x, indices, axis)
