"""Determinants: ``det`` of one square matrix, ``batch_det`` of a stack of them."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.math import inv as _inv
from chainer.utils import type_check


class BatchDet(function_node.FunctionNode):
    """Determinants of a batch of square matrices."""

    _ndim = 3

    @property
    def label(self):
        return 'det'

    def check_type_forward(self, in_types):
        _inv._check_square(in_types, self._ndim, 'x')

    def forward(self, inputs):
        a, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(a)
        if a.dtype == numpy.float16:
            return xp.asarray(xp.linalg.det(a.astype(numpy.float32))).astype(numpy.float16),
        return xp.asarray(xp.linalg.det(a)),

    def backward(self, indexes, grad_outputs):
        # d det(A) / dA = det(A) A^-T (Jacobi's formula); this needs A to be
        # invertible, as in Chainer.
        F = chainer.functions
        a, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        scale = F.reshape(grad_outputs[0] * y, y.shape + (1, 1))
        inv_a = _inv.batch_inv(a) if a.ndim == 3 else _inv.inv(a)
        return F.broadcast_to(scale, a.shape) * F.swapaxes(inv_a, -1, -2),



def det(a):
    """Determinant of a square matrix.

    Args:
        a (~chainer.Variable or N-dimensional array): Matrix of shape
            ``(n, n)`` (float).

    Returns:
        ~chainer.Variable: The determinant, a 0-d variable.

    .. admonition:: Example

        >>> a = np.array([[2, 1], [1, 3]], np.float32)
        >>> F.det(a).array
        array(5., dtype=float32)
    """
    # As a batch of one matrix (Chainer's way, and so its errors): (n, n) -> (1, n, n).
    shape = _checks.shape_of('det', 'a', a)
    if len(shape) < 2:
        raise type_check.InvalidType('a.ndim == 2', f'{len(shape)} != 2',
                                     f'det: a must be a square matrix, got shape {shape}')
    batch = chainer.functions.reshape(a, (1, shape[0], shape[1]))
    return chainer.functions.reshape(BatchDet().apply((batch,))[0], ())


def batch_det(a):
    """Determinants of a batch of square matrices.

    Args:
        a (~chainer.Variable or N-dimensional array): Batch of matrices, of
            shape ``(batch, n, n)`` (float).

    Returns:
        ~chainer.Variable: The determinant of each matrix, of shape
        ``(batch,)``.
    """
    return BatchDet().apply((a,))[0]
