"""Cholesky decomposition of a symmetric positive-definite matrix."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class Cholesky(function_node.FunctionNode):
    """Lower-triangular ``L`` with ``L @ L.T == a``."""

    @property
    def label(self):
        return 'cholesky'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.ndim == 2,
            a_type.shape[0] == a_type.shape[1],
        )

    def forward(self, inputs):
        a, = inputs
        self.retain_outputs((0,))
        xp = backend.get_array_module(a)
        if a.dtype == numpy.float16:
            return xp.linalg.cholesky(a.astype(numpy.float32)).astype(numpy.float16),
        return xp.asarray(xp.linalg.cholesky(a)),

    def backward(self, indexes, grad_outputs):
        # NOTE: from dA = dL L^T + L dL^T, L^-1 dA L^-T = X + X^T with the
        # lower-triangular X = L^-1 dL, so dL = L Phi(L^-1 dA L^-T) where Phi
        # keeps the strict lower triangle and halves the diagonal. Its adjoint
        # gives gA = L^-T Phi(L^T gL) L^-1, returned symmetrised because the
        # input is a symmetric matrix (only symmetric perturbations exist).
        F = chainer.functions
        L, = self.get_retained_outputs()
        gL, = grad_outputs
        xp = backend.get_array_module(L.array)
        n = L.shape[0]
        phi = xp.tril(xp.ones((n, n), L.dtype), -1) + xp.eye(n, dtype=L.dtype) * 0.5
        inv_L = F.inv(L)
        p = F.matmul(L, gL, transa=True) * phi
        ga = F.matmul(inv_L, F.matmul(p, inv_L), transa=True)
        return (ga + F.transpose(ga)) * 0.5,


def cholesky(a):
    """Cholesky decomposition of a symmetric positive-definite matrix.

    Returns the lower-triangular :math:`L` such that :math:`a = L L^T`. Only
    the lower triangle of ``a`` is read; the gradient is symmetric.

    Args:
        a (~chainer.Variable or N-dimensional array): Symmetric
            positive-definite matrix of shape ``(n, n)`` (float).

    Returns:
        ~chainer.Variable: The lower-triangular factor, of shape ``(n, n)``.

    .. admonition:: Example

        >>> a = np.array([[4, 2], [2, 5]], np.float32)
        >>> F.cholesky(a).array
        array([[2., 0.],
               [1., 2.]], dtype=float32)
    """
    return Cholesky().apply((a,))[0]
