import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check

_MASK = numpy.array([[True, False, True, False], [False, False, True, True],
                     [True, True, False, False]])


@testing.parameterize(*testing.product({
    'slices': [
        (slice(None), [0, 0, 2]),        # repeated indices add up
        [0, 2, 2],                       # list of ints: an index along axis 0
        1,
        (slice(1, 3), Ellipsis, None, 2),
        _MASK,
    ],
    'dtype': [numpy.float16, numpy.float32, numpy.float64],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestScatterAdd(testing.FunctionTestCase):

    shape = (3, 4)

    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, self.shape).astype(self.dtype)
        b_shape = a[self.slices].shape
        b = numpy.random.uniform(-1, 1, b_shape).astype(self.dtype)
        return a, b

    def forward(self, inputs, device):
        a, b = inputs
        return F.scatter_add(a, self.slices, b),

    def forward_expected(self, inputs):
        a, b = inputs
        y = a.copy()
        numpy.add.at(y, self.slices if not isinstance(self.slices, list)
                     else numpy.asarray(self.slices), b)
        return y,


def test_input_is_not_modified():
    a = numpy.zeros((2, 3), numpy.float32)
    F.scatter_add(a, (slice(None), [0, 0]), numpy.ones((2, 2), numpy.float32))
    assert not a.any()


def test_index_given_as_variable():
    a = numpy.zeros(3, numpy.float32)
    idx = chainer.Variable(numpy.array([1, 1]))
    y = F.scatter_add(a, idx, numpy.ones(2, numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0, 2, 0])


def test_no_broadcasting():
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(ValueError, match='broadcast'):
        F.scatter_add(a, 1, numpy.ones((1,), numpy.float32))


def test_two_ellipses():
    with pytest.raises(ValueError):
        F.scatter_add(numpy.zeros((2, 3), 'f'), (Ellipsis, Ellipsis), numpy.zeros((2, 3), 'f'))


@pytest.mark.parametrize('a, slices, b', [
    (numpy.zeros((2, 3), 'f'), (0, 1, 2), numpy.zeros((), 'f')),  # too many indices
])
def test_invalid_inputs(a, slices, b):
    with pytest.raises(type_check.InvalidType, match='ScatterAdd'):
        F.scatter_add(a, slices, b)


def test_other_dtype_of_b():
    # as in Chainer 7.8.1: summed in the promoted dtype, the result in a's
    a = numpy.array([[0, 1, 2], [3, 4, 5]], 'i')
    y = F.scatter_add(a, 0, numpy.array([0.5, -1.5, 2.25]))
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, [[0, 0, 4], [3, 4, 5]])
