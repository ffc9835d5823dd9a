"""Scaled exponential linear unit."""
from chainer.functions.activation import elu as _elu


class SELU(_elu.ELU):
    """ELU scaled by ``scale``; shares ELU's forward and gradient code."""

    def __init__(self, alpha, scale):
        super().__init__(alpha)
        self.scale = float(scale)


def selu(x, alpha=1.6732632423543772848170429916717,
         scale=1.0507009873554804934193349852946):
    """SELU: an ELU scaled so that activations keep zero mean and unit variance.

    .. math::
        f(x) = \\lambda \\begin{cases}
            x & (x > 0) \\\\ \\alpha (\\exp(x) - 1) & (x \\le 0) \\end{cases}

    where :math:`\\lambda` is ``scale``. The defaults are the self-normalizing
    constants of Klambauer et al., *Self-Normalizing Neural Networks*
    (https://arxiv.org/abs/1706.02515).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        alpha (float): Scale of the exponential part.
        scale (float): Scale of the whole output.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype.

    .. admonition:: Example

        >>> x = np.array([-1., 0., 2.], np.float32)
        >>> F.selu(x).array
        array([-1.1113307,  0.       ,  2.101402 ], dtype=float32)
    """
    return SELU(alpha, scale).apply((x,))[0]
