"""Cumulative product along an axis."""
import chainer
from chainer import backend
from chainer.functions.math import cumsum as _cumsum


class Cumprod(_cumsum._Cumulative):
    """Cumulative product of array elements over an axis."""

    _func = 'cumprod'

    def __init__(self, axis):       # (required, as in Chainer)
        super().__init__(axis)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        return xp.asarray(xp.cumprod(x, axis=self.axis).astype(x.dtype, copy=False)),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        axis = self.axis
        in_shape = x.shape
        if x.size == 0:
            # nothing to differentiate: an empty gradient that depends on gy alone, as in
            # Chainer 7.8.1 (whose second-order gradient with respect to x is None)
            return F.reshape(gy * 0, in_shape),
        if axis is None:
            x = F.reshape(x, (-1,))
            axis = 0
        axis %= x.ndim
        gx = _cumprod_grad(x, y, gy, axis)
        if gx.shape != in_shape:
            gx = F.reshape(gx, in_shape)
        return gx,


def _reverse_cumsum(x, axis):
    node = _cumsum.Cumsum(axis)
    node._reverse = True
    return node.apply((x,))[0]


def _cumprod_grad(x, y, gy, axis):
    """Gradient of ``sum(gy * cumprod(x))`` with respect to ``x``, as a Variable."""
    # dy_k/dx_i = y_k / x_i for k >= i, so gx_i = sum_{k >= i} gy_k y_k / x_i.
    rev = _reverse_cumsum(gy * y, axis)
    zero = x.array == 0
    if not zero.any():
        return rev / x
    # NOTE: y / x fails at zeros. Let z be the first zero along the axis.
    # * i < z: y_k = 0 for k >= z, so the y / x formula still holds.
    # * i = z: dy_k/dx_z is the running product with x_z replaced by one.
    # * i > z: the gradient is x_z (= 0) times the gradient of the running
    #   product with x_z replaced by one. Its value is zero, but keeping the
    #   factor x_z makes its derivative with respect to x_z right.
    # Masks are constants, so the expression stays differentiable; the
    # recursion ends because every level replaces one zero per slice.
    F = chainer.functions
    xp = backend.get_array_module(zero)
    dtype = x.dtype
    n = x.shape[axis]
    first = xp.where(zero.any(axis=axis), zero.argmax(axis=axis), n)
    pos_shape = [1] * x.ndim
    pos_shape[axis] = n
    pos = xp.arange(n).reshape(pos_shape)
    first = xp.expand_dims(first, axis)
    before = (pos < first).astype(dtype)
    at = (pos == first).astype(dtype)
    after = (pos > first).astype(dtype)
    x_one = x * (1 - at) + at
    y_one = cumprod(x_one, axis)
    rev_one = _reverse_cumsum(gy * y_one, axis)
    x_z = F.broadcast_to(F.sum(x * at, axis=axis, keepdims=True), x.shape)
    return (rev / (x * before + (1 - before)) * before + rev_one * at
            + x_z * _cumprod_grad(x_one, y_one, gy, axis) * after)


def cumprod(x, axis=None):
    """Cumulative product of array elements over an axis.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        axis (int or None): Axis along which to accumulate. With ``None`` the
            input is flattened first.

    Returns:
        ~chainer.Variable: Running products, of the shape of ``x`` (1-D when
        ``axis`` is ``None``).

    .. admonition:: Example

        >>> x = np.array([[1, 2, 3], [4, 5, 6]], np.float32)
        >>> F.cumprod(x, axis=1).array
        array([[  1.,   2.,   6.],
               [  4.,  20., 120.]], dtype=float32)
    """
    return Cumprod(axis).apply((x,))[0]
