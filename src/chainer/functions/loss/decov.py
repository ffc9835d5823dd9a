"""DeCov loss: the off-diagonal covariances of hidden units."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _old_style
from chainer.functions.loss import _common
from chainer.functions.loss import cross_covariance as _cc
from chainer.utils import type_check


class DeCov(_old_style.FunctionCall, function_node.FunctionNode):
    """Covariance matrix of ``h`` over the batch axis with its diagonal zeroed."""

    def __init__(self, reduce='half_squared_sum'):
        _common.check_reduce('decov', reduce, ('half_squared_sum', 'no'))
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('h',))
        h, = in_types
        type_check.expect(h.dtype.kind == 'f', h.ndim == 2)

    def forward(self, inputs):
        h, = inputs
        xp = backend.get_array_module(h)
        self.retain_inputs((0,))
        hc = h - h.mean(axis=0, keepdims=True)
        cov = hc.T.dot(hc) / len(h)
        self.offdiag = 1 - xp.eye(h.shape[1], dtype=h.dtype)
        cov *= self.offdiag
        if self.reduce == 'half_squared_sum':
            cov = 0.5 * (cov * cov).sum()
        return xp.asarray(cov, h.dtype),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        h, = self.get_retained_inputs()
        gout, = grad_outputs
        n = len(h)
        hc = _cc._centered(h)
        if self.reduce == 'half_squared_sum':
            cov = F.matmul(hc, hc, transa=True) / n * self.offdiag
            gcov = F.broadcast_to(gout, cov.shape) * cov
        else:
            gcov = gout * self.offdiag
        # C = hc^T hc / N, so dL/dh = hc (G + G^T) / N (the centring adds nothing).
        return F.matmul(hc, gcov + F.transpose(gcov)) / n,


def decov(h, reduce='half_squared_sum'):
    """DeCov loss (Cogswell et al., 2016) of hidden activations.

    .. math::
        C_{ij} = \\frac{1}{N} \\sum_n (h_{ni} - \\bar{h}_i)(h_{nj} - \\bar{h}_j),
        \\quad L = \\frac{1}{2} (\\|C\\|_F^2 - \\|\\mathrm{diag}(C)\\|_2^2)

    Args:
        h (~chainer.Variable or N-dimensional array): Activations of shape
            ``(N, M)`` (float).
        reduce (str): ``'half_squared_sum'`` returns :math:`L`; ``'no'`` the
            matrix :math:`C` with its diagonal zeroed, of shape ``(M, M)``.

    Returns:
        ~chainer.Variable: The loss or the off-diagonal covariance matrix.

    .. admonition:: Example

        >>> h = np.array([[1., 1.], [-1., -1.]], 'f')
        >>> F.decov(h, reduce='no').array
        array([[0., 1.],
               [1., 0.]], dtype=float32)
    """
    return DeCov(reduce).apply((h,))[0]
