"""Matrix products: ``matmul`` (NumPy semantics, with transposes) and ``batch_matmul``."""
import math
import warnings

import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


def _op(a, trans):
    return a.swapaxes(-1, -2) if trans and a.ndim >= 2 else a


class MatMul(function_node.FunctionNode):
    """Matrix product ``op(a) @ op(b)`` with optional transposition of either side.

    As in :func:`numpy.matmul`, a 1-D ``a`` is a row vector and a 1-D ``b`` a
    column vector (the added axis is dropped from the result, and ``trans*``
    has no effect on them), and inputs of more than two dimensions are stacks
    of matrices whose leading axes broadcast. Inputs of different float
    dtypes give NumPy's promoted dtype; ``dtype`` forces the output dtype.
    """

    transc = False      # Chainer's option of a transposed result; never set here

    def __init__(self, transa=False, transb=False, dtype=None):
        self.transa = transa
        self.transb = transb
        self.dtype = dtype

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',
            a_type.ndim >= 1,
            b_type.ndim >= 1,
        )
        a_ndim = type_check.eval(a_type.ndim)
        b_ndim = type_check.eval(b_type.ndim)
        # (a 1-D operand's length is shape[0], as Chainer writes it)
        a_idx = 0 if a_ndim == 1 else (-2 if self.transa else -1)
        b_idx = 0 if b_ndim == 1 else (-1 if self.transb else -2)
        type_check.expect(a_type.shape[a_idx] == b_type.shape[b_idx])
        if a_ndim > 2 or b_ndim > 2:
            type_check.expect_broadcast_shapes(a_type.shape[:-2], b_type.shape[:-2])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        xp = backend.get_array_module(a, b)
        y = xp.matmul(_op(a, self.transa), _op(b, self.transb))
        if self.dtype is not None:
            return xp.asarray(y, dtype=self.dtype),
        return xp.asarray(y),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        return _matmul_grads(a, b, grad_outputs[0], indexes, self.transa, self.transb)


def _matmul_grads(a, b, gy, indexes, transa=False, transb=False):
    """Gradients of ``op(a) @ op(b)`` for the given input indexes (as Variables)."""
    F = chainer.functions
    a_shape, b_shape = a.shape, b.shape
    # Lift 1-D operands to matrices (row for a, column for b) and give gy
    # back the axes that the lifting removed from the product.
    A = F.reshape(a, (1,) + a_shape) if a.ndim == 1 else a
    B = F.reshape(b, b_shape + (1,)) if b.ndim == 1 else b
    transa = transa and a.ndim > 1
    transb = transb and b.ndim > 1
    g_shape = gy.shape
    if a.ndim == 1:
        g_shape = g_shape[:-1] + (1,) + g_shape[-1:] if b.ndim > 1 else g_shape + (1,)
    if b.ndim == 1:
        g_shape = g_shape + (1,)
    G = F.reshape(gy, g_shape) if g_shape != gy.shape else gy
    ret = []
    if 0 in indexes:
        if transa:
            ga = MatMul(transb, True, a.dtype).apply((B, G))[0]
        else:
            ga = MatMul(False, not transb, a.dtype).apply((G, B))[0]
        ga = F.sum_to(ga, A.shape)
        ret.append(F.reshape(ga, a_shape))
    if 1 in indexes:
        if transb:
            gb = MatMul(True, transa, b.dtype).apply((G, A))[0]
        else:
            gb = MatMul(not transa, False, b.dtype).apply((A, G))[0]
        gb = F.sum_to(gb, B.shape)
        ret.append(F.reshape(gb, b_shape))
    return tuple(ret)


def matmul(a, b, transa=False, transb=False):
    """Matrix product of two arrays (stacks of matrices broadcast as in NumPy).

    Args:
        a (~chainer.Variable or N-dimensional array): Left operand. Two 1-D
            operands give their dot product; 2-D operands give the matrix
            product; with more dimensions both are stacks of matrices in the
            last two axes, broadcast along the others.
        b (~chainer.Variable or N-dimensional array): Right operand, read
            the same way.
        transa (bool): Transpose each matrix of ``a`` first (no effect when
            ``a`` is 1-D).
        transb (bool): Transpose each matrix of ``b`` first (no effect when
            ``b`` is 1-D).

    Returns:
        ~chainer.Variable: The product.

    .. admonition:: Example

        >>> a = np.array([[1, 2, 3]], np.float32)
        >>> b = np.array([[1, 0], [0, 1], [2, 2]], np.float32)
        >>> F.matmul(a, b).array
        array([[7., 8.]], dtype=float32)
        >>> F.matmul(a, a, transb=True).array
        array([[14.]], dtype=float32)
    """
    return MatMul(transa=transa, transb=transb).apply((a, b))[0]


def _as_batch_mat(x):
    # (B, N) is a batch of N x 1 matrices; (B, M, N) stays as it is. (An explicit width, not
    # -1, which a size-0 batch leaves undetermined.)
    return x.reshape(x.shape[:2] + (math.prod(x.shape[2:]),)) if x.ndim != 3 else x


class BatchMatMul(function_node.FunctionNode):
    """The batched product behind the deprecated :func:`batch_matmul`.

    Each operand is a batch along its first axis; a 2-D operand ``(B, N)`` is a batch of
    ``N x 1`` matrices. Any float dtypes, as :func:`matmul` takes them (Chainer 7.8.1 takes
    float32 only: ``function:chainer.functions.batch_matmul:accepts`` in docs/differences.md).
    """

    def __init__(self, transa=False, transb=False):
        self.transa = transa
        self.transb = transb

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        # (another kind of dtype is refused in Chainer's words, which ask for float32)
        _checks.expect_kind_of(a_type, numpy.float32)
        _checks.expect_kind_of(b_type, numpy.float32)
        type_check.expect(a_type.ndim <= 3, b_type.ndim <= 3)
        # The inner sizes, an axis of the operand or 1 for the implicit column of a 2-D one.
        a_ndim = type_check.eval(a_type.ndim)
        b_ndim = type_check.eval(b_type.ndim)
        a_inner = a_type.shape[1] if self.transa else (a_type.shape[2] if a_ndim == 3 else 1)
        b_inner = (b_type.shape[2] if b_ndim == 3 else 1) if self.transb else b_type.shape[1]
        type_check.expect(a_inner == b_inner)
        type_check.expect(a_type.shape[0] == b_type.shape[0])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        xp = backend.get_array_module(a, b)
        a = _op(_as_batch_mat(a), self.transa)
        b = _op(_as_batch_mat(b), self.transb)
        return xp.asarray(xp.matmul(a, b)),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        a, b = self.get_retained_inputs()
        a3 = F.reshape(a, _as_batch_mat(a.array).shape)
        b3 = F.reshape(b, _as_batch_mat(b.array).shape)
        grads = _matmul_grads(a3, b3, grad_outputs[0], indexes, self.transa, self.transb)
        shapes = [x.shape for i, x in enumerate((a, b)) if i in indexes]
        return tuple(F.reshape(g, shape) for g, shape in zip(grads, shapes))


def batch_matmul(a, b, transa=False, transb=False):
    """Batched matrix product (deprecated: use :func:`matmul`).

    Each operand is a batch along its first axis. A 2-D operand of shape
    ``(B, N)`` is a batch of ``N x 1`` matrices.

    Args:
        a (~chainer.Variable or N-dimensional array): Left operand (batched, float).
        b (~chainer.Variable or N-dimensional array): Right operand (batched, float).
        transa (bool): Transpose each matrix of ``a``.
        transb (bool): Transpose each matrix of ``b``.

    Returns:
        ~chainer.Variable: Batch of products, shape ``(B, M, K)``.
    """
    warnings.warn('batch_matmul is deprecated. Use matmul instead.', DeprecationWarning)
    return BatchMatMul(transa=transa, transb=transb).apply((a, b))[0]
