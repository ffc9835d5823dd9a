"""Squared L2 norm of each sample in a batch."""
import math

import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import type_check


class BatchL2NormSquared(function_node.FunctionNode):
    """Sum of squares over all axes but the first."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
        )

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        x2 = x.reshape(x.shape[0], math.prod(x.shape[1:]))
        if x.dtype == numpy.float16:
            # Square in float16 as Chainer does (so results agree with float16
            # arithmetic), but accumulate in float32.
            y = xp.square(x2).sum(axis=1, dtype=numpy.float32)
        else:
            # A row-wise dot product reads x once and makes no temporary.
            y = xp.einsum('ij,ij->i', x2, x2)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        x, = self.get_retained_inputs()
        gy = F.reshape(grad_outputs[0], (len(x),) + (1,) * (x.ndim - 1))
        return F.broadcast_to(gy, x.shape) * x * 2,


def batch_l2_norm_squared(x):
    """Squared L2 norm of each sample of a batch.

    .. math:: y_i = \\sum_j x_{ij}^2

    where :math:`j` runs over all axes of ``x`` but the first.

    Args:
        x (~chainer.Variable or N-dimensional array): Batch of shape
            ``(batch, ...)`` with at least two dimensions (float).

    Returns:
        ~chainer.Variable: Squared norms, of shape ``(batch,)``.

    .. admonition:: Example

        >>> x = np.array([[1, 2], [3, 4]], np.float32)
        >>> F.batch_l2_norm_squared(x).array
        array([ 5., 25.], dtype=float32)
    """
    return BatchL2NormSquared().apply((x,))[0]
