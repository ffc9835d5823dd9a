import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _reference(xs):
    length = len(xs[0])
    return tuple(numpy.stack([x[t] for x in xs if len(x) > t]) for t in range(length))


@testing.parameterize(*testing.product({
    'lengths': [[4, 2, 2, 1], [3, 3, 3], [2, 1, 0], [1]],
    'unit': [(), (3,)],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTransposeSequence(testing.FunctionTestCase):

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, (n,) + self.unit).astype(self.dtype)
                     for n in self.lengths)

    def forward(self, inputs, device):
        return F.transpose_sequence(list(inputs))

    def forward_expected(self, inputs):
        return _reference(inputs)


@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestTransposeSequenceUnusedOutputs(testing.FunctionTestCase):
    # Only the second time step is used: the others get no gradient (None).

    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, (n, 2)) for n in (3, 2, 1))

    def forward(self, inputs, device):
        return F.transpose_sequence(inputs)[1],

    def forward_expected(self, inputs):
        return _reference(inputs)[1],


def test_docstring_example():
    xs = [numpy.array([1, 1, 1]), numpy.array([2, 2]), numpy.array([3])]
    ys = F.transpose_sequence(xs)
    assert isinstance(ys, tuple) and all(isinstance(y, chainer.Variable) for y in ys)
    assert [y.array.tolist() for y in ys] == [[1, 2, 3], [1, 2], [1]]


def test_is_its_own_inverse():
    xs = [numpy.random.rand(n, 2).astype(numpy.float32) for n in (5, 3, 3, 1)]
    back = F.transpose_sequence(F.transpose_sequence(xs))
    for x, y in zip(xs, back):
        numpy.testing.assert_array_equal(x, y.array)


def test_empty():
    assert F.transpose_sequence([]) == ()
    assert F.transpose_sequence([numpy.zeros((0, 2), 'f')]) == ()


@pytest.mark.parametrize('xs', [
    [numpy.zeros((1, 2), 'f'), numpy.zeros((2, 2), 'f')],   # not sorted by length
    [numpy.zeros((2, 2), 'f'), numpy.zeros((1, 3), 'f')],   # unit shape mismatch
    [numpy.zeros((), 'f')],                                 # 0-d sequence
])
def test_invalid_inputs(xs):
    with pytest.raises(type_check.InvalidType, match='TransposeSequence'):
        F.transpose_sequence(xs)


def test_other_dtypes_take_the_first_sequences():
    # as in Chainer 7.8.1; each gradient comes back in its own sequence's dtype
    xs = [chainer.Variable(numpy.ones((2, 2), 'f')), chainer.Variable(numpy.ones((1, 2), 'd'))]
    ys = F.transpose_sequence(xs)
    assert [y.dtype for y in ys] == [numpy.float32, numpy.float32]
    gxs = chainer.grad(list(ys), xs, [chainer.Variable(numpy.ones(y.shape, 'f')) for y in ys])
    assert [g.dtype for g in gxs] == [numpy.float32, numpy.float64]
