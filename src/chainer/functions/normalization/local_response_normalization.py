"""Local response normalization across channels (Krizhevsky et al., 2012)."""
from chainer import backend
from chainer import function_node
from chainer.functions.normalization import batch_normalization as _bn
from chainer.utils import type_check


class _ChannelWindowSum(function_node.FunctionNode):
    """Sums over the window of channels ``c - n // 2 ... c + n // 2`` (axis 1, zero-padded).

    The window is symmetric, so the map is its own adjoint: its backward is
    the same node.
    """

    def __init__(self, n):
        self.n = n

    def forward(self, inputs):
        a, = inputs
        xp = backend.get_array_module(a)
        half, channels = self.n // 2, a.shape[1]
        padded = xp.zeros(a.shape[:1] + (channels + 2 * half,) + a.shape[2:], a.dtype)
        padded[:, half:half + channels] = a
        out = padded[:, :channels].copy()
        for offset in range(1, 2 * half + 1):      # n steps, each over the whole array
            out += padded[:, offset:offset + channels]
        return out,

    def backward(self, indexes, grad_outputs):
        return _ChannelWindowSum(self.n).apply(grad_outputs)


class LocalResponseNormalization(function_node.FunctionNode):
    """Divides each value by ``(k + alpha * s) ** beta``.

    ``s`` is the sum of squares over the nearby channels.
    """

    def __init__(self, n=5, k=2, alpha=1e-4, beta=.75):
        self.n = n
        self.k = k
        self.alpha = alpha
        self.beta = beta

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 1)
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        dtype = _bn.compute_dtype(x.dtype)
        xc = x.astype(dtype, copy=False)
        s = _ChannelWindowSum(self.n).forward((xc * xc,))[0]
        s *= self.alpha
        s += self.k
        return (xc * s ** -self.beta).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        # With s = k + alpha * S(x^2) and y = x * s^-beta (S the window sum):
        # gx = gy * s^-beta - 2 * alpha * beta * x * S(gy * y / s).
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        dtype = _bn.compute_dtype(x.dtype)
        xc, gyc = _bn.as_dtype(x, dtype), _bn.as_dtype(gy, dtype)
        s = _ChannelWindowSum(self.n).apply((xc * xc,))[0] * self.alpha + self.k
        scale = s ** -self.beta
        t = _ChannelWindowSum(self.n).apply((gyc * xc * scale / s,))[0]
        gx = gyc * scale - (2 * self.alpha * self.beta) * xc * t
        return _bn.as_dtype(gx, x.dtype),


def local_response_normalization(x, n=5, k=2, alpha=1e-4, beta=.75):
    """Local response normalization across the channels (axis 1).

    .. math::
        y_c = x_c \\Big/ \\left(k + \\alpha \\sum_{c' = c - n/2}^{c + n/2} x_{c'}^2\\right)^\\beta

    (``n / 2`` rounded down; channels outside ``x`` count as 0).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float) of at
            least two dimensions.
        n (int): Width of the channel window.
        k (float): Offset added to the sum.
        alpha (float): Factor of the sum of squares.
        beta (float): Exponent.

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[1., 1., 1.]], np.float32)
        >>> F.local_response_normalization(x, n=3, k=1, alpha=1, beta=1).array
        array([[0.33333334, 0.25      , 0.33333334]], dtype=float32)
    """
    return LocalResponseNormalization(n, k, alpha, beta).apply((x,))[0]
