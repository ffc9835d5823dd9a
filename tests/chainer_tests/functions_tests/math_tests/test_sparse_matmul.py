import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import testing
from chainer import utils
from chainer.utils import type_check


def _sparse_dense(shape, dtype):
    x = numpy.random.uniform(-1, 1, shape)
    x[numpy.random.uniform(0, 1, shape) > 0.4] = 0
    return x.astype(dtype)


def _op(x, trans):
    return x.swapaxes(-1, -2) if trans else x


@testing.parameterize(*(
    testing.product({
        'sparse_side': ['a', 'b'],
        'batched': [False, True],
        'transa': [False, True],
        'transb': [False, True],
        'dtype': [numpy.float32],
    })
    + testing.product({
        'sparse_side': ['a', 'b'],
        'batched': [True],
        'transa': [False],
        'transb': [False],
        'dtype': [numpy.float16, numpy.float64],
    })
))
@testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
class TestSparseMatMul(testing.FunctionTestCase):
    """The sparse operand's stored entries (with padding) and the dense operand are inputs."""

    # float16: dot products of several float16 terms
    tolerances = {numpy.float16: (5e-3, (1e-2, 5e-2), (5e-2, 1e-1))}

    def setUp(self):
        batch = (2,) if self.batched else ()
        a_shape = batch + ((4, 3) if self.transa else (3, 4))
        b_shape = batch + ((5, 4) if self.transb else (4, 5))
        if self.sparse_side == 'a':
            self.sparse = utils.to_coo(_sparse_dense(a_shape, self.dtype), ldnz=10)
            self.dense_shape = b_shape
        else:
            self.sparse = utils.to_coo(_sparse_dense(b_shape, self.dtype), ldnz=14)
            self.dense_shape = a_shape

    def generate_inputs(self):
        sp = self.sparse
        data = numpy.random.uniform(-1, 1, sp.data.shape).astype(self.dtype)
        data[sp.row < 0] = 0  # padding slots hold zeros
        return data, numpy.random.uniform(-1, 1, self.dense_shape).astype(self.dtype)

    def forward(self, inputs, device):
        data, dense = inputs
        sp = self.sparse
        row, col = device.send(sp.row), device.send(sp.col)
        coo = utils.CooMatrix(data, row, col, sp.shape)
        if self.sparse_side == 'a':
            return F.sparse_matmul(coo, dense, self.transa, self.transb),
        return F.sparse_matmul(dense, coo, self.transa, self.transb),

    def forward_expected(self, inputs):
        data, dense = (x.astype(numpy.float64) for x in inputs)
        sp = self.sparse
        matrix = utils.CooMatrix(data, sp.row, sp.col, sp.shape).to_dense()
        a, b = (matrix, dense) if self.sparse_side == 'a' else (dense, matrix)
        return numpy.matmul(_op(a, self.transa), _op(b, self.transb)).astype(self.dtype),


def test_gradient_of_stored_entries_only():
    dense = numpy.array([[0, 2], [1, 0]], numpy.float32)
    sp = utils.to_coo(dense, requires_grad=True)
    b = chainer.Variable(numpy.array([[1, 2], [3, 4]], numpy.float32))
    F.sum(F.sparse_matmul(sp, b)).backward()
    # d sum(A B) / dA[i, j] = sum_k B[j, k], taken at the stored (0, 1) and (1, 0).
    numpy.testing.assert_array_equal(sp.data.grad, [7, 3])
    numpy.testing.assert_array_equal(b.grad, [[1, 1], [2, 2]])


def test_no_gradient_without_requires_grad():
    sp = utils.to_coo(numpy.eye(2, dtype=numpy.float32))
    b = chainer.Variable(numpy.ones((2, 2), numpy.float32))
    F.sum(F.sparse_matmul(sp, b)).backward()
    assert sp.data.grad is None
    numpy.testing.assert_array_equal(b.grad, numpy.ones((2, 2)))


def test_operand_kinds():
    sp = utils.to_coo(numpy.eye(2, dtype=numpy.float32))
    dense = numpy.ones((2, 2), numpy.float32)
    with pytest.raises(ValueError):
        F.sparse_matmul(dense, dense)
    with pytest.raises(ValueError):
        F.sparse_matmul(sp, sp)


def test_mixed_dtypes():
    # as in Chainer 7.8.1: the product in the promoted dtype, each gradient in its operand's
    sp = utils.to_coo(numpy.eye(2, dtype=numpy.float32))
    dn = chainer.Variable(numpy.ones((2, 2), numpy.float16))
    y = F.sparse_matmul(sp, dn)
    assert y.dtype == numpy.float32
    gdn, = chainer.grad([y], [dn], [chainer.Variable(numpy.ones((2, 2), numpy.float32))])
    assert gdn.dtype == numpy.float16


def test_invalid_types():
    sp = utils.to_coo(numpy.eye(2, dtype=numpy.float32))
    with pytest.raises(type_check.InvalidType, match='CooMatMul'):
        F.sparse_matmul(sp, numpy.ones((3, 2), numpy.float32))  # inner lengths differ
    with pytest.raises(type_check.InvalidType, match='CooMatMul'):
        F.sparse_matmul(sp, numpy.ones((1, 2, 2), numpy.float32))  # batch vs. single
    with pytest.raises(type_check.InvalidType, match='CooMatMul'):
        F.sparse_matmul(numpy.ones((2, 3), numpy.float32), sp)
    batch = utils.to_coo(numpy.ones((2, 2, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType, match='CooMatMul'):
        F.sparse_matmul(batch, numpy.ones((3, 2, 2), numpy.float32))  # batch sizes differ


@pytest.mark.parametrize('transa, transb, transc', [
    (False, False, False), (True, False, False), (False, True, True), (True, True, True)])
def test_coo_mat_mul_nodes(transa, transb, transc):
    # CooMatMul: op(A) @ op(B) (transposed when transc); CooMatMulGradSP: the entries of
    # op(a) @ op(b) (or its transpose) at the sparse pattern, with its own gradient.
    from chainer.functions.math.sparse_matmul import CooMatMul, CooMatMulGradSP
    dense = numpy.array([[0, 2, 0], [1, 0, 3]], numpy.float32)
    sp = utils.to_coo(dense)
    op = (lambda m, t: m.T if t else m)
    b = numpy.random.uniform(-1, 1, (2, 2) if transa else (3, 2)).astype(numpy.float32)
    b_in = numpy.ascontiguousarray(b.T) if transb else b
    y = CooMatMul(sp.row, sp.col, sp.shape, sp.order, transa, transb, transc).apply(
        (sp.data, b_in))[0]
    c = op(dense, transa) @ b
    numpy.testing.assert_allclose(y.array, op(c, transc), rtol=1e-6)

    a = chainer.Variable(numpy.random.uniform(-1, 1, (3, 2) if transc else (2, 2)))
    v = chainer.Variable(numpy.random.uniform(-1, 1, (2, 2) if transc else (2, 3)))
    xa = chainer.Variable(numpy.ascontiguousarray(op(a.array, transa)))
    xv = chainer.Variable(numpy.ascontiguousarray(op(v.array, transb)))
    g = CooMatMulGradSP(sp.row, sp.col, sp.shape, sp.order, transa, transb, transc).apply(
        (xa, xv))[0]
    full = op(a.array @ v.array, transc)
    numpy.testing.assert_allclose(g.array, full[sp.row, sp.col])
    chainer.gradient_check.check_backward(
        lambda p, q: CooMatMulGradSP(sp.row, sp.col, sp.shape, sp.order, transa, transb,
                                     transc).apply((p, q)),
        (xa.array, xv.array), numpy.random.uniform(-1, 1, g.shape), dtype=numpy.float64)
