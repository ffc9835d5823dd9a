"""Normalization to unit L2 norm."""
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.math import sqrt
from chainer.functions.normalization import batch_normalization as _bn
from chainer.functions.math import sum as _sum
from chainer.utils import type_check
from chainer.functions import _static_arrays


class NormalizeL2(function_node.FunctionNode):
    """Divides ``x`` by its L2 norm along ``axis`` plus ``eps``."""

    def __init__(self, eps=1e-5, axis=1):
        self.eps = eps
        axis = _checks.axis_arg('normalize', axis, tuple_=True)
        # Kept as a tuple, as Chainer does.
        self.axis = axis if isinstance(axis, tuple) else (axis,)

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 1)
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        axes = self.axis if isinstance(self.axis, tuple) else (self.axis,)
        for a in axes:
            _checks.expect_axis(x_type, a, func='normalize', error=_checks.AxisError)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        # A float16 sum of squares overflows easily: it is taken in float32.
        sq = xp.square(x.astype(_bn.compute_dtype(x.dtype), copy=False))
        norm = xp.sqrt(sq.sum(axis=self.axis, keepdims=True))
        return (x / (norm + self.eps)).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        # With u = |x| + eps: gx = gy / u - x * sum(gy * x) / (u^2 |x|). The second term is
        # 0 where x is the zero vector; |x| is replaced by 1 there to keep it finite.
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        norm = sqrt.sqrt(_sum.sum(x * x, axis=self.axis, keepdims=True))
        is_zero, = _static_arrays.compute(_is_zero, norm.array, dtype=x.dtype)
        safe = norm + is_zero
        u = norm + x.dtype.type(self.eps)
        dot = _sum.sum(gy * x, axis=self.axis, keepdims=True)
        return gy / u - x * (dot / (u * u * safe)),


def normalize(x, eps=1e-5, axis=1):
    """Normalizes ``x`` to unit L2 norm along ``axis``.

    .. math:: y = \\frac{x}{\\|x\\|_2 + \\epsilon}

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        eps (float): Added to the norm, so a zero vector maps to zero.
        axis (int or tuple of int): Axis or axes the norm is taken along.

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[3., 4.], [0., 0.]], np.float32)
        >>> F.normalize(x).array
        array([[0.5999988, 0.7999984],
               [0.       , 0.       ]], dtype=float32)
    """
    return NormalizeL2(eps, axis).apply((x,))[0]


def _is_zero(norm, dtype):
    return (norm == 0).astype(dtype)
