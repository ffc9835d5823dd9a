import warnings

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer.utils import type_check


def _op(x, trans):
    return x.swapaxes(-1, -2) if trans and x.ndim >= 2 else x


@testing.parameterize(*(
    testing.product({
        'shapes': [((2, 3), (3, 4)), ((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)),
                   ((5, 2, 3), (3, 4)), ((2, 3), (5, 3, 4)), ((5, 1, 2, 3), (4, 3, 2)),
                   ((3,), (5, 3, 2)), ((5, 2, 3), (3,))],
        'transa': [False, True],
        'transb': [False, True],
        'dtype': [numpy.float32],
    })
    + testing.product({
        'shapes': [((2, 3), (3, 4)), ((0, 3), (3, 2))],
        'transa': [False],
        'transb': [False],
        'dtype': [numpy.float16, numpy.float64],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMatMul(testing.FunctionTestCase):

    # float16: dot products of several float16 terms
    tolerances = {numpy.float16: (None, (1e-2, 5e-2), 5e-2)}

    def generate_inputs(self):
        sa, sb = self.shapes
        a = numpy.random.uniform(-1, 1, sa)
        b = numpy.random.uniform(-1, 1, sb)
        # Store the operands transposed when the function will transpose them back.
        return (_op(a, self.transa).astype(self.dtype),
                _op(b, self.transb).astype(self.dtype))

    def forward(self, inputs, device):
        return F.matmul(*inputs, transa=self.transa, transb=self.transb),

    def forward_expected(self, inputs):
        a, b = inputs
        y = numpy.matmul(_op(a, self.transa), _op(b, self.transb))
        return numpy.asarray(y, self.dtype),


@testing.parameterize(*testing.product({
    'dtypes': [(numpy.float16, numpy.float32), (numpy.float32, numpy.float64)],
}))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestMatMulMixedDtypes(testing.FunctionTestCase):

    def setUp(self):
        self.check_forward_options = {'atol': 1e-3, 'rtol': 1e-3}
        self.check_backward_options = {'atol': 1e-2, 'rtol': 5e-2}
        self.check_double_backward_options = {'atol': 5e-2, 'rtol': 5e-2}

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (2, 3)).astype(self.dtypes[0]),
                numpy.random.uniform(-1, 1, (3, 4)).astype(self.dtypes[1]))

    def forward(self, inputs, device):
        return F.matmul(*inputs),

    def forward_expected(self, inputs):
        return numpy.matmul(*inputs),


def test_mixed_dtypes_promote_and_gradients_keep_input_dtypes():
    a = chainer.Variable(numpy.ones((2, 3), numpy.float16))
    b = chainer.Variable(numpy.ones((3, 2), numpy.float32))
    y = F.matmul(a, b)
    assert y.dtype == numpy.float32
    F.sum(y).backward()
    assert a.grad.dtype == numpy.float16
    assert b.grad.dtype == numpy.float32


def test_operator_uses_matmul():
    a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    y = a @ numpy.ones((3, 4), numpy.float32)
    assert y.shape == (2, 4)
    assert isinstance(y.creator, F.math.matmul.MatMul)


@pytest.mark.parametrize('a_shape,b_shape', [
    ((), (3,)), ((3,), ()),          # scalars are not allowed
    ((2, 3), (2, 3)), ((3,), (4,)),  # contracted lengths differ
    ((2, 2, 3), (3, 3, 2)),          # batch axes do not broadcast
])
def test_invalid_shapes(a_shape, b_shape):
    with pytest.raises(type_check.InvalidType, match='MatMul'):
        F.matmul(numpy.ones(a_shape, numpy.float32), numpy.ones(b_shape, numpy.float32))


def test_invalid_dtype():
    with pytest.raises(type_check.InvalidType, match='MatMul'):
        F.matmul(numpy.ones((2, 3), numpy.int32), numpy.ones((3, 2), numpy.float32))


def test_transpose_ignored_for_vectors():
    a = numpy.arange(3, dtype=numpy.float32)
    b = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    numpy.testing.assert_array_equal(F.matmul(a, b, transa=True).array, a @ b)
    numpy.testing.assert_array_equal(F.matmul(b.T, a, transb=True).array, b.T @ a)


@testing.parameterize(
    {'a_shape': (4, 2, 3), 'b_shape': (4, 3, 5), 'transa': False, 'transb': False},
    {'a_shape': (4, 3, 2), 'b_shape': (4, 3, 5), 'transa': True, 'transb': False},
    {'a_shape': (4, 3), 'b_shape': (4, 3), 'transa': True, 'transb': False},
    {'a_shape': (4, 3), 'b_shape': (4, 5), 'transa': False, 'transb': True},
)
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestBatchMatMul(testing.FunctionTestCase):

    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, self.a_shape).astype(numpy.float32),
                numpy.random.uniform(-1, 1, self.b_shape).astype(numpy.float32))

    def forward(self, inputs, device):
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', DeprecationWarning)
            return F.batch_matmul(*inputs, transa=self.transa, transb=self.transb),

    def forward_expected(self, inputs):
        a, b = (x.reshape(x.shape[:2] + (-1,)) for x in inputs)
        return numpy.matmul(_op(a, self.transa), _op(b, self.transb)),


def test_batch_matmul_is_deprecated():
    with pytest.warns(DeprecationWarning, match='matmul'):
        F.batch_matmul(numpy.ones((2, 2, 3), numpy.float32), numpy.ones((2, 3, 1), numpy.float32))
