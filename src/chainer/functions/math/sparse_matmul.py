"""Products of a sparse COO matrix and a dense matrix (batched or not)."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.math._elementwise import as_dtype as _as_dtype
from chainer.utils import sparse as _sparse
from chainer.utils import type_check


class _Pattern:
    """The index structure of a (batch of) sparse matrices of shape ``(n_rows, n_cols)``.

    It caches the flat indices that the kernels use: with the batch folded
    into the matrix axis, entry ``k`` of matrix ``b`` maps dense row
    ``b * n_cols + col`` onto output row ``b * n_rows + row``. Padding slots
    (negative indices) are left out.
    """

    def __init__(self, row, col, n_rows, n_cols):
        self.row = row
        self.col = col
        self.n_rows = n_rows
        self.n_cols = n_cols
        self._flat = None
        self._t = None

    @property
    def T(self):
        if self._t is None:
            self._t = _Pattern(self.col, self.row, self.n_cols, self.n_rows)
            self._t._t = self
        return self._t

    def flat(self):
        """Returns ``(valid, out_index, in_index, n_batch)`` for the kernels."""
        if self._flat is None:
            xp = backend.get_array_module(self.row)
            row = self.row.reshape(-1, self.row.shape[-1])
            col = self.col.reshape(-1, self.col.shape[-1])
            n_batch = row.shape[0]
            valid = (row >= 0) & (col >= 0)
            batch = xp.arange(n_batch)[:, None]
            out_index = (batch * self.n_rows + row)[valid]
            in_index = (batch * self.n_cols + col)[valid]
            self._flat = valid.reshape(self.row.shape), out_index, in_index, n_batch
        return self._flat


def _spmm(pattern, data, dense):
    """``S @ dense`` for the sparse ``S`` given by ``pattern`` and ``data``.

    ``dense`` has shape ``batch + (n_cols, N)``; the result ``batch + (n_rows, N)``.
    """
    xp = backend.get_array_module(data, dense)
    valid, out_index, in_index, n_batch = pattern.flat()
    n = dense.shape[-1]
    values = data[valid]
    rows = n_batch * pattern.n_rows
    dense2 = dense.reshape(n_batch * pattern.n_cols, n)
    dtype = dense.dtype
    if dtype == numpy.float16:
        values = values.astype(numpy.float32)
        dense2 = dense2.astype(numpy.float32)
    if xp is numpy:
        try:
            import scipy.sparse
        except ImportError:
            scipy = None
        if scipy is not None:
            matrix = scipy.sparse.csr_matrix(
                (values, (out_index, in_index)), shape=(rows, dense2.shape[0]))
            y = numpy.asarray(matrix @ dense2)
        else:
            y = numpy.zeros((rows, n), values.dtype)
            numpy.add.at(y, out_index, values[:, None] * dense2[in_index])
    else:
        import cupyx
        y = xp.zeros((rows, n), values.dtype)
        cupyx.scatter_add(y, out_index, values[:, None] * dense2[in_index])
    return y.astype(dtype, copy=False).reshape(dense.shape[:-2] + (pattern.n_rows, n))


def _sddmm(pattern, a, b):
    """Entries ``(a @ b.T)[row_k, col_k]`` at the positions of ``pattern`` (0 at padding)."""
    xp = backend.get_array_module(a, b)
    valid, out_index, in_index, n_batch = pattern.flat()
    n = a.shape[-1]
    a2 = a.reshape(n_batch * pattern.n_rows, n)
    b2 = b.reshape(n_batch * pattern.n_cols, n)
    values = (a2[out_index] * b2[in_index]).sum(axis=1, dtype=numpy.float32
                                                  if a.dtype == numpy.float16 else None)
    out = xp.zeros(pattern.row.shape, a.dtype)
    out[valid] = values
    return out


def _swap(x):
    """Swaps the last two axes of a Variable."""
    return chainer.functions.swapaxes(x, -1, -2)


class _PatternProduct(function_node.FunctionNode):
    """A product over a fixed sparsity ``pattern``, computed on arrays by ``_kernel``."""

    def __init__(self, pattern):
        self.pattern = pattern

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        return self._kernel(self.pattern, *inputs),


class _SpMM(_PatternProduct):
    """``S @ d`` with ``S`` given by a fixed pattern and the input entries."""

    _kernel = staticmethod(_spmm)

    def backward(self, indexes, grad_outputs):
        data, d = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(_SDDMM(self.pattern).apply((gy, d))[0])
        if 1 in indexes:
            ret.append(_SpMM(self.pattern.T).apply((data, gy))[0])
        return tuple(ret)


class _SDDMM(_PatternProduct):
    """Entries of ``a @ b.T`` sampled at a fixed pattern."""

    _kernel = staticmethod(_sddmm)

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(_SpMM(self.pattern).apply((gy, b))[0])
        if 1 in indexes:
            ret.append(_SpMM(self.pattern.T).apply((gy, a))[0])
        return tuple(ret)


def _check_types(sp_type, dn_type, sp_names, sp_row):
    type_check._argname((sp_type, dn_type), sp_names)
    type_check.expect(
        sp_type.shape == type_check.make_variable(sp_row.shape, 'row.shape'),
        sp_type.dtype.kind == 'f',
        dn_type.dtype.kind == 'f',
        sp_type.ndim >= 1,
        sp_type.ndim <= 2,
        sp_type.ndim == dn_type.ndim - 1,
    )
    if type_check.eval(sp_type.ndim) == 2:
        type_check.expect(dn_type.shape[0] == sp_type.shape[0])


class _CooNode(function_node.FunctionNode):
    # The arguments the two COO nodes share (Chainer's signature), and the sparsity pattern.

    _pattern_follows_transa = False

    def __init__(self, sp_row, sp_col, sp_shape, sp_order='other', transa=False, transb=False,
                 transc=False, dtype=None):
        self.sp_row = sp_row
        self.sp_col = sp_col
        self.sp_shape = tuple(sp_shape)
        self.sp_order = sp_order
        self.transa = transa
        self.transb = transb
        self.transc = transc
        self.dtype = dtype
        pattern = _Pattern(sp_row, sp_col, *self.sp_shape)
        self._pattern = pattern.T if transa and self._pattern_follows_transa else pattern


class CooMatMul(_CooNode):
    """``C = op(A) @ op(B)`` for a sparse ``A`` (COO) and a dense ``B``; ``C^T`` if ``transc``.

    The inputs are ``A.data`` and ``B``. A dense-times-sparse product is this
    node with the operands swapped: ``op(D) @ op(S) = (op(S)^T @ op(D)^T)^T``.
    """

    # The product reads op(A)'s pattern; the gradient node keeps A's own.
    _pattern_follows_transa = True

    def check_type_forward(self, in_types):
        # the two operands may have different float dtypes (the product has NumPy's promoted
        # one, each gradient its operand's), as in Chainer 7.8.1
        _check_types(in_types[0], in_types[1], ('sp', 'dn'), self.sp_row)
        dn_type = in_types[1]
        k = self.sp_shape[0] if self.transa else self.sp_shape[1]
        type_check.expect(dn_type.shape[-1 if self.transb else -2] == k)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        data, b = inputs
        dtype = numpy.promote_types(data.dtype, b.dtype)
        data, b = data.astype(dtype, copy=False), b.astype(dtype, copy=False)
        if self.transb:
            b = b.swapaxes(-1, -2)
        y = _spmm(self._pattern, data, b)
        if self.transc:
            y = y.swapaxes(-1, -2)
        if self.dtype is not None:
            y = y.astype(self.dtype, copy=False)
        return y,

    def backward(self, indexes, grad_outputs):
        data_in, b_in = self.get_retained_inputs()
        gy, = grad_outputs
        data, b = _as_dtype(data_in, gy.dtype), _as_dtype(b_in, gy.dtype)
        if self.transc:
            gy = _swap(gy)
        op_b = _swap(b) if self.transb else b
        ret = []
        if 0 in indexes:
            ret.append(_as_dtype(_SDDMM(self._pattern).apply((gy, op_b))[0], data_in.dtype))
        if 1 in indexes:
            g = _SpMM(self._pattern.T).apply((data, gy))[0]
            ret.append(_as_dtype(_swap(g) if self.transb else g, b_in.dtype))
        return tuple(ret)


class CooMatMulGradSP(_CooNode):
    """The entries of ``op(a) @ op(b)`` (its transpose if ``transc``) at a sparse pattern.

    This is the gradient of :class:`CooMatMul` with respect to the sparse
    data; the output has the shape of ``sp_row``.
    """


    def _operands(self, a, b, swap):
        # The kernel samples x @ y.T: with A = op(a) and B = op(b), A @ B is
        # A @ (B^T).T, and its transpose B^T @ A^T is B^T @ A.T.
        a = swap(a) if self.transa else a
        b = swap(b) if self.transb else b
        return (swap(b), a) if self.transc else (a, swap(b))

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, y = self._operands(*inputs, lambda v: v.swapaxes(-1, -2))
        out = _sddmm(self._pattern, x, y)
        return out if self.dtype is None else out.astype(self.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        x, y = self._operands(a, b, _swap)
        gy, = grad_outputs
        gx = _SpMM(self._pattern).apply((gy, y))[0]
        g_y = _SpMM(self._pattern.T).apply((gy, x))[0]
        # Undo _operands: x, y are (A, B^T), or (B^T, A) when transc.
        ga, gb = (g_y, _swap(gx)) if self.transc else (gx, _swap(g_y))
        ga = _swap(ga) if self.transa else ga
        gb = _swap(gb) if self.transb else gb
        return tuple(g for i, g in ((0, ga), (1, gb)) if i in indexes)


def sparse_matmul(a, b, transa=False, transb=False):
    """Product of a sparse (COO) matrix and a dense matrix, possibly batched.

    Two cases are supported: ``C = op(A) @ op(B)`` with a sparse ``A`` and a
    dense ``B``, or with a dense ``A`` and a sparse ``B``. A sparse matrix
    with 1-D ``data`` pairs with a 2-D dense matrix; a batch of sparse
    matrices (2-D ``data``) pairs with a 3-D dense batch of the same size.

    Args:
        a (~chainer.Variable, N-dimensional array or ~chainer.utils.CooMatrix):
            Left operand.
        b (~chainer.Variable, N-dimensional array or ~chainer.utils.CooMatrix):
            Right operand.
        transa (bool): Transpose each matrix of ``a`` first.
        transb (bool): Transpose each matrix of ``b`` first.

    Returns:
        ~chainer.Variable: The dense product (batched when the inputs are).

    .. seealso:: :func:`~chainer.utils.to_coo` builds a COO matrix from a dense
       array; the gradient of the sparse operand is computed for its stored
       entries only (``CooMatrix.data``).

    .. admonition:: Example

        >>> a = chainer.utils.to_coo(np.array([[0, 2], [1, 0]], np.float32))
        >>> b = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.sparse_matmul(a, b).array
        array([[6., 8.],
               [1., 2.]], dtype=float32)
    """
    coo = _sparse.CooMatrix

    def dense(x):
        return isinstance(x, chainer.Variable) or chainer.variable._is_array(x)

    if not (isinstance(a, coo) and dense(b) or dense(a) and isinstance(b, coo)):
        raise ValueError('This combination of type of inputs is not supported.\n'
                         f'    a: {type(a)}\n    b: {type(b)}\n'
                         '(sparse_matmul requires one sparse (CooMatrix) and one dense operand)')
    if isinstance(a, coo):
        node = CooMatMul(a.row, a.col, a.shape, a.order, transa, transb, False)
        return node.apply((a.data, b))[0]
    # op(a) @ op(b) = (op(b)^T @ op(a)^T)^T
    node = CooMatMul(b.row, b.col, b.shape, b.order, not transb, not transa, True)
    return node.apply((b.data, a))[0]
