"""Layer normalization (Ba et al., 2016)."""
from chainer.functions.normalization import group_normalization as _gn
from chainer.utils import type_check


class LayerNormalization(_gn.GroupNormalization):
    """Normalizes each row of a matrix, then scales and shifts per column.

    It is group normalization of a matrix with a single group.
    """

    def __init__(self, eps=1e-5):
        super().__init__(1, eps)

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 3)
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            gamma_type.ndim == 1,
            beta_type.ndim == 1,
            gamma_type.shape == beta_type.shape,
            x_type.shape[1] == gamma_type.shape[0],
            gamma_type.dtype == x_type.dtype,
            beta_type.dtype == x_type.dtype,
        )


def layer_normalization(x, gamma, beta, eps=1e-5):
    """Layer normalization: normalizes each sample over its features.

    .. math::
        y_{ij} = \\gamma_j \\frac{x_{ij} - \\mu_i}{\\sqrt{\\sigma_i^2 + \\epsilon}} + \\beta_j

    with :math:`\\mu_i` and :math:`\\sigma_i^2` the mean and variance of row ``i``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float), a
            matrix of shape ``(N, D)``.
        gamma (~chainer.Variable or N-dimensional array): Scale, of shape ``(D,)``.
        beta (~chainer.Variable or N-dimensional array): Shift, of shape ``(D,)``.
        eps (float): Added to the variances for stability.

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[1., 3.], [0., 10.]], np.float32)
        >>> one, zero = np.ones(2, np.float32), np.zeros(2, np.float32)
        >>> F.layer_normalization(x, one, zero, eps=0).array
        array([[-1.,  1.],
               [-1.,  1.]], dtype=float32)
    """
    return LayerNormalization(eps).apply((x, gamma, beta))[0]
