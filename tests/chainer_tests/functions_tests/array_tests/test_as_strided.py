import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing


def _reference(x, shape, strides, offset):
    flat = numpy.ascontiguousarray(x).reshape(-1)[offset or 0:]
    item = flat.itemsize
    view = numpy.lib.stride_tricks.as_strided(flat, shape, [s * item for s in strides])
    return view.copy()


@testing.parameterize(*testing.product_dict(
    [
        {'in_shape': (4,), 'shape': (3, 2), 'strides': (1, 1), 'offset': 0},  # overlapping
        {'in_shape': (2, 3), 'shape': (3, 2), 'strides': (1, 3), 'offset': None},  # transpose
        {'in_shape': (6,), 'shape': (2, 2), 'strides': (-2, 1), 'offset': 4},  # negative
        {'in_shape': (5,), 'shape': (), 'strides': (), 'offset': 2},
        {'in_shape': (3,), 'shape': (0, 2), 'strides': (1, 1), 'offset': None},
    ],
    testing.product({'dtype': [numpy.float16, numpy.float32, numpy.float64]}),
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestAsStrided(testing.FunctionTestCase):

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.in_shape).astype(self.dtype),

    def forward(self, inputs, device):
        return F.as_strided(inputs[0], self.shape, self.strides, self.offset),

    def forward_expected(self, inputs):
        return _reference(inputs[0], self.shape, self.strides, self.offset),


def test_overlapping_reads_add_gradients():
    x = chainer.Variable(numpy.arange(4, dtype=numpy.float32))
    y = F.as_strided(x, (3, 2), (1, 1), 0)
    numpy.testing.assert_array_equal(y.array, [[0, 1], [1, 2], [2, 3]])
    y.grad = numpy.ones((3, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [1, 2, 2, 1])


def test_view_outside_storage_is_refused():
    with pytest.raises(ValueError, match='outside the storage'):
        F.as_strided(numpy.zeros(6, numpy.float32), (3,), (3,), 0)
    with pytest.raises(ValueError, match='outside the storage'):
        F.as_strided(numpy.zeros(6, numpy.float32), (2,), (-1,), 0)


def test_mismatched_shape_and_strides():
    with pytest.raises(ValueError):
        F.as_strided(numpy.zeros(6, numpy.float32), (3, 2), (1,))
