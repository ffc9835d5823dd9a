import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

_MASK = numpy.array([[True, False, True, True], [False, False, True, False],
                     [True, True, False, False]])


@testing.parameterize(*testing.product_dict(
    [
        {'slices': 1},
        {'slices': (1, 2)},
        {'slices': (0, 1, 2)},                       # 0-d output
        {'slices': slice(None, None, -1)},
        {'slices': (Ellipsis, 2)},
        {'slices': (None, 1, Ellipsis, None)},
        {'slices': [0, 0, 2]},                       # repeated rows: gradients add
        {'slices': []},
        {'slices': [True, False, True]},
        {'slices': _MASK},                           # 2-D mask
        {'slices': (slice(None), numpy.array([[0, 1], [1, 1]]), 0)},
        {'slices': (0, [1, 2], [3, 3])},
        {'slices': [1, slice(None)]},                # a list read as a tuple
        {'slices': numpy.array(True)},
        {'slices': (Ellipsis, numpy.array([3, 3, 0]))},
        {'slices': (slice(0, 0),)},                  # empty output
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestGetItem(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 4, 5)).astype(self.dtype),

    def _index(self):
        s = self.slices
        if isinstance(s, list) and all(isinstance(e, (int, bool)) for e in s):
            return numpy.asarray(s, dtype=None if s else numpy.intp)
        return tuple(s) if isinstance(s, list) else s

    def forward(self, inputs, device):
        return F.get_item(inputs[0], self.slices),

    def forward_expected(self, inputs):
        return numpy.asarray(inputs[0][self._index()]).copy(),


def test_repeated_positions_accumulate():
    x = chainer.Variable(numpy.zeros((3,), numpy.float32))
    F.sum(F.get_item(x, [0, 0, 2, 0])).backward()
    numpy.testing.assert_array_equal(x.grad, [3, 0, 1])


def test_variable_as_index_and_getitem_operator():
    x = chainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(3, 2))
    idx = chainer.Variable(numpy.array([2, 0]))
    numpy.testing.assert_array_equal(x[idx].array, [[4, 5], [0, 1]])
    numpy.testing.assert_array_equal(x[x.array > 2].array, [3, 4, 5])
    numpy.testing.assert_array_equal(x[:, 1].array, [1, 3, 5])


def test_double_backprop():
    x = chainer.Variable(numpy.arange(4, dtype=numpy.float32))
    y = F.get_item(x, [1, 1, 3])
    gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    F.sum(gx * gx).backward()
    # gx = [0, 4 x1, 0, 2 x3]; d/dx sum(gx^2) = [0, 32 x1, 0, 8 x3]
    numpy.testing.assert_allclose(x.grad, [0, 32, 0, 24])


@pytest.mark.parametrize('slices', [(0, 0, 0), (0, _MASK), (Ellipsis, 0, 0, 0)])
def test_too_many_indexes(slices):
    x = numpy.zeros((3, 4), numpy.float32)
    with pytest.raises(type_check.InvalidType, match='GetItem'):
        F.get_item(x, slices)


@pytest.mark.parametrize('slices', ['a', 1.5, numpy.array([0.5])])
def test_invalid_index_type(slices):
    with pytest.raises(TypeError):
        F.get_item(numpy.zeros((3, 4), numpy.float32), slices)


@pytest.mark.parametrize('slices', [(Ellipsis, Ellipsis), (Ellipsis, 0, Ellipsis)])
def test_more_than_one_ellipsis(slices):
    # Chainer rejects this with ValueError before NumPy sees the index.
    with pytest.raises(ValueError, match='Only one Ellipsis'):
        F.get_item(numpy.zeros((3, 4), numpy.float32), slices)
