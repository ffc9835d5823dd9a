"""Cross-covariance of two batches of vectors."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.loss import _common
from chainer.utils import type_check


def _centered(a):
    F = chainer.functions
    return a - F.broadcast_to(F.mean(a, axis=0, keepdims=True), a.shape)


class CrossCovariance(function_node.FunctionNode):
    """Cross-covariance matrix of ``y`` and ``z`` over the batch axis."""

    def __init__(self, reduce='half_squared_sum'):
        _common.check_reduce('cross_covariance', reduce, ('half_squared_sum', 'no'))
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('y', 'z'))
        y, z = in_types
        type_check.expect(y.dtype.kind == 'f', y.dtype == z.dtype,
                          y.ndim == 2, z.ndim == 2, y.shape[0] == z.shape[0])

    def forward(self, inputs):
        y, z = inputs
        xp = backend.get_array_module(y)
        self.retain_inputs((0, 1))
        yc = y - y.mean(axis=0, keepdims=True)
        zc = z - z.mean(axis=0, keepdims=True)
        cov = yc.T.dot(zc) / len(y)
        if self.reduce == 'half_squared_sum':
            cov = 0.5 * (cov * cov).sum()
        return xp.asarray(cov, y.dtype),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        y, z = self.get_retained_inputs()
        gout, = grad_outputs
        n = len(y)
        yc, zc = _centered(y), _centered(z)
        if self.reduce == 'half_squared_sum':
            cov = F.matmul(yc, zc, transa=True) / n
            gcov = F.broadcast_to(gout, cov.shape) * cov
        else:
            gcov = gout
        # The centring needs no term of its own: these gradients already sum to
        # zero over the batch axis.
        ret = []
        if 0 in indexes:
            ret.append(F.matmul(zc, gcov, transb=True) / n)
        if 1 in indexes:
            ret.append(F.matmul(yc, gcov) / n)
        return tuple(ret)


def cross_covariance(y, z, reduce='half_squared_sum'):
    """Cross-covariance loss of two batches of vectors.

    .. math::
        C_{ij} = \\frac{1}{N} \\sum_n (y_{ni} - \\bar{y}_i)(z_{nj} - \\bar{z}_j),
        \\quad L = \\frac{1}{2} \\sum_{ij} C_{ij}^2

    Args:
        y (~chainer.Variable or N-dimensional array): Vectors of shape
            ``(N, M)`` (float).
        z (~chainer.Variable or N-dimensional array): Vectors of shape
            ``(N, K)``, of the same dtype.
        reduce (str): ``'half_squared_sum'`` returns :math:`L`; ``'no'``
            the matrix :math:`C` of shape ``(M, K)``.

    Returns:
        ~chainer.Variable: The loss or the cross-covariance matrix.

    .. admonition:: Example

        >>> y = np.array([[1.], [-1.]], 'f')
        >>> F.cross_covariance(y, y, reduce='no').array
        array([[1.]], dtype=float32)
    """
    return CrossCovariance(reduce).apply((y, z))[0]
