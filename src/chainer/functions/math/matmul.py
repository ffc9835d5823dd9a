"""Matrix products: ``matmul`` (NumPy semantics, with transposes) and ``batch_matmul``."""
import warnings

import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _op(a, trans):
    return a.swapaxes(-1, -2) if trans and a.ndim >= 2 else a


class MatMul(function_node.FunctionNode):
    """Matrix product ``op(a) @ op(b)`` with optional transposition of either side."""

    def __init__(self, transa=False, transb=False):
        self.transa = transa
        self.transb = transb

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.dtype == b_type.dtype,
            a_type.ndim >= 1,
            b_type.ndim >= 1,
        )
        a_shape = type_check.eval(a_type.shape)
        b_shape = type_check.eval(b_type.shape)
        ka = a_shape[-2] if self.transa and len(a_shape) >= 2 else a_shape[-1]
        kb = b_shape[-1] if self.transb and len(b_shape) >= 2 else (
            b_shape[-2] if len(b_shape) >= 2 else b_shape[-1])
        if ka != kb:
            raise type_check.InvalidType(
                f'contracted dimensions of a and b are equal',
                f'a.shape={a_shape} (transa={self.transa}), '
                f'b.shape={b_shape} (transb={self.transb}): {ka} != {kb}')

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        xp = backend.get_array_module(a, b)
        return xp.asarray(xp.matmul(_op(a, self.transa), _op(b, self.transb))),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        return _matmul_grads(a, b, grad_outputs[0], indexes, self.transa, self.transb)


def _matmul_grads(a, b, gy, indexes, transa=False, transb=False):
    """Gradients of ``op(a) @ op(b)`` for the given input indexes (as Variables)."""
    F = chainer.functions
    a_shape, b_shape = a.shape, b.shape
    A = F.reshape(a, (1,) + a_shape) if a.ndim == 1 else a
    B = F.reshape(b, b_shape + (1,)) if b.ndim == 1 else b
    if a.ndim == 1:
        transa = False
    if b.ndim == 1:
        transb = False
    # Give gy back the axes that the 1-D promotion removed.
    g_shape = gy.shape
    if a.ndim == 1:
        g_shape = g_shape[:-1] + (1,) + g_shape[-1:] if b.ndim > 1 else g_shape + (1,)
    if b.ndim == 1:
        g_shape = g_shape + (1,)
    G = F.reshape(gy, g_shape) if g_shape != gy.shape else gy
    ret = []
    if 0 in indexes:
        if transa:
            ga = matmul(B, G, transa=transb, transb=True)
        else:
            ga = matmul(G, B, transa=False, transb=not transb)
        ga = F.sum_to(ga, A.shape)
        ret.append(F.reshape(ga, a_shape))
    if 1 in indexes:
        if transb:
            gb = matmul(G, A, transa=True, transb=transa)
        else:
            gb = matmul(A, G, transa=not transa, transb=False)
        gb = F.sum_to(gb, B.shape)
        ret.append(F.reshape(gb, b_shape))
    return tuple(ret)


def matmul(a, b, transa=False, transb=False):
    """Matrix product of two arrays (stacks of matrices broadcast as in NumPy).

    Args:
        a (~chainer.Variable or N-dimensional array): Left operand. A 1-D
            array is treated as a row vector.
        b (~chainer.Variable or N-dimensional array): Right operand. A 1-D
            array is treated as a column vector.
        transa (bool): Transpose the last two axes of ``a`` first.
        transb (bool): Transpose the last two axes of ``b`` first.

    Returns:
        ~chainer.Variable: The product.

    .. admonition:: Example

        >>> a = np.array([[1, 0], [0, 1]], np.float32)
        >>> b = np.array([[4, 1], [2, 2]], np.float32)
        >>> F.matmul(a, b).array
        array([[4., 1.],
               [2., 2.]], dtype=float32)
    """
    return MatMul(transa=transa, transb=transb).apply((a, b))[0]


def batch_matmul(a, b, transa=False, transb=False):
    """Batched matrix product (deprecated: use :func:`matmul`).

    A 2-D input of shape ``(B, N)`` is treated as a batch of ``(N, 1)`` column
    vectors, as in Chainer.

    Args:
        a (~chainer.Variable or N-dimensional array): Left operand (batched).
        b (~chainer.Variable or N-dimensional array): Right operand (batched).
        transa (bool): Transpose each matrix of ``a``.
        transb (bool): Transpose each matrix of ``b``.

    Returns:
        ~chainer.Variable: Batch of products, shape ``(B, M, K)``.
    """
    warnings.warn('batch_matmul is deprecated. Use matmul instead.', DeprecationWarning)
    F = chainer.functions
    if a.ndim == 2:
        a = F.reshape(a, a.shape + (1,))
    if b.ndim == 2:
        b = F.reshape(b, b.shape + (1,))
    return matmul(a, b, transa, transb)
