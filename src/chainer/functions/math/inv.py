"""Matrix inverse: ``inv`` of one square matrix, ``batch_inv`` of a stack of them."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


def _check_square(in_types, ndim, name='a'):
    """States that the input is a float array of ``ndim`` axes whose matrices are square.

    ``name`` is the input's name in messages (``a``; ``x`` for the determinants, as in Chainer).
    """
    type_check._argname(in_types, (name,))
    a_type, = in_types
    type_check.expect(
        a_type.dtype.kind == 'f',
        a_type.ndim == ndim,
    )
    # (a matrix's axes by index, a batch's from the end, as Chainer words them)
    if ndim == 2:
        type_check.expect(a_type.shape[0] == a_type.shape[1])
    else:
        type_check.expect(a_type.shape[-1] == a_type.shape[-2])


def _inverse(a):
    """Inverse of a (stack of) square matrices; LAPACK has no float16."""
    xp = backend.get_array_module(a)
    if a.dtype == numpy.float16:
        return xp.linalg.inv(a.astype(numpy.float32)).astype(numpy.float16)
    return xp.asarray(xp.linalg.inv(a))


def _inverse_grad(y, gy):
    # d(A^-1) = -A^-1 dA A^-1, hence gA = -(A^-T) gY (A^-T).
    matmul = chainer.functions.matmul
    return -matmul(y, matmul(gy, y, transb=True), transa=True)


class Inv(function_node.FunctionNode):
    """Inverse of a square matrix.

    A singular input raises :class:`numpy.linalg.LinAlgError` (a
    ``ValueError``) from NumPy.
    """

    _ndim = 2

    def check_type_forward(self, in_types):
        _check_square(in_types, self._ndim)

    def forward(self, inputs):
        self.retain_outputs((0,))
        return _inverse(inputs[0]),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return _inverse_grad(y, grad_outputs[0]),


class BatchInv(Inv):
    """Inverses of a batch of square matrices."""

    _ndim = 3


def inv(a):
    """Inverse of a square matrix.

    Args:
        a (~chainer.Variable or N-dimensional array): Matrix of shape
            ``(n, n)`` (float).

    Returns:
        ~chainer.Variable: :math:`a^{-1}`.

    .. admonition:: Example

        >>> a = np.array([[2, 0], [0, 4]], np.float32)
        >>> F.inv(a).array
        array([[0.5 , 0.  ],
               [0.  , 0.25]], dtype=float32)
    """
    return Inv().apply((a,))[0]


def batch_inv(a):
    """Inverses of a batch of square matrices.

    Args:
        a (~chainer.Variable or N-dimensional array): Batch of matrices, of
            shape ``(batch, n, n)`` (float).

    Returns:
        ~chainer.Variable: The inverse of each matrix, of the same shape.
    """
    return BatchInv().apply((a,))[0]
