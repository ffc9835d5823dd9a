import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing


def _reference(x, shape, strides, offset):
    # The harness's inputs own their memory, so their storage is their C-order elements.
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
    # as_strided reads the memory of the input's base array: the harness's default
    # non-contiguous inputs are views into a larger buffer, so give it owners.
    contiguous = 'C'

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
    with pytest.raises(ValueError, match='storage has 6 elements'):
        F.as_strided(numpy.zeros(6, numpy.float32), (3,), (3,), 0)
    with pytest.raises(ValueError, match='storage has 6 elements'):
        F.as_strided(numpy.zeros(6, numpy.float32), (2,), (-1,), 0)


def test_mismatched_shape_and_strides():
    with pytest.raises(ValueError):
        F.as_strided(numpy.zeros(6, numpy.float32), (3, 2), (1,))


def test_storage_is_the_memory_of_the_base_array():
    base = numpy.arange(12, dtype=numpy.float32)
    x = base.reshape(3, 4)[::-1]   # a reversed view: its storage is still ``base``
    numpy.testing.assert_array_equal(F.as_strided(x, (12,), (1,), 0).array, base)
    # Without an offset the view starts where ``x`` starts.
    y = F.as_strided(base.reshape(3, 4)[1:], (2,), (1,))
    numpy.testing.assert_array_equal(y.array, [4, 5])
    assert numpy.shares_memory(y.array, base)


def test_storage_elements_outside_the_input_get_no_gradient():
    x = chainer.Variable(numpy.arange(12, dtype=numpy.float64).reshape(3, 4)[1:])
    y = F.as_strided(x, (6,), (1,), 0)
    y.grad = numpy.arange(6, dtype=numpy.float64)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[4, 5, 0, 0], [0, 0, 0, 0]])


def test_overlapping_input_shares_the_gradient_equally():
    from chainer.functions.array.as_strided import _stride_array
    storage = numpy.arange(8, dtype=numpy.float64)
    x = _stride_array(storage, (3, 3), (-1, 2), 3)
    numpy.testing.assert_array_equal(x, [[3, 5, 7], [2, 4, 6], [1, 3, 5]])
    v = chainer.Variable(x)
    y = F.as_strided(v, (3, 3), (1, 2), 0)
    numpy.testing.assert_array_equal(y.array, [[0, 2, 4], [1, 3, 5], [2, 4, 6]])
    gx, = chainer.grad([y], [v], grad_outputs=[numpy.ones((3, 3))])
    # storage 3 and 5 are each shown twice by x, so each position gets half.
    numpy.testing.assert_array_equal(gx.array, [[.5, .5, 0], [2, 2, 1], [1, .5, .5]])


def test_double_backward_through_overlapping_input_is_the_adjoint():
    # The gradient is linear in gy; its own gradient must be its adjoint:
    # <G(gy), ggx> == <gy, G^T(ggx)>. (A numerical check cannot be used here:
    # perturbing one element of an overlapping input moves its aliases too.)
    from chainer.functions.array.as_strided import _stride_array
    x = _stride_array(numpy.random.uniform(-1, 1, 8), (3, 3), (-1, 2), 3)
    v = chainer.Variable(x)
    gy = chainer.Variable(numpy.random.uniform(-1, 1, (2, 4)))
    ggx = numpy.random.uniform(-1, 1, (3, 3))
    y = F.as_strided(v, (2, 4), (1, 1), 1)
    gx, = chainer.grad([y], [v], grad_outputs=[gy], enable_double_backprop=True)
    ggy, = chainer.grad([F.sum(gx * ggx)], [gy])
    numpy.testing.assert_allclose(float((gx.array * ggx).sum()),
                                  float((gy.array * ggy.array).sum()))


def test_integer_gradient_is_refused():
    v = chainer.Variable(numpy.arange(4))
    y = F.as_strided(v, (4,), (-1,), 3)
    with pytest.raises(TypeError, match='only float'):
        chainer.grad([y], [v], grad_outputs=[numpy.ones(4, numpy.int64)])
