"""Log-sum-exp over axes, computed without overflow."""
import numpy

import chainer
from chainer import backend
from chainer.functions.math import sum as _sum


class LogSumExp(_sum._Reduction):
    """``log(sum(exp(x)))`` over the given axes (always without keepdims)."""

    _func = 'logsumexp'

    def __init__(self, axis=None):
        self.axis = _sum._normalize_axis(axis, self._func)

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        xp = backend.get_array_module(x)
        dtype = x.dtype
        out_shape = _reduced_shape(x.shape, self.axis)
        if dtype == numpy.float16:
            x = x.astype(numpy.float32)
        if x.ndim == 0:
            x = x.reshape(1)  # so that the in-place steps below get arrays
        # Shifting by the maximum keeps exp() within range. A slice that is all
        # -inf (or holds inf) would turn the shift into nan, so such slices are
        # shifted by zero and give -inf (or inf) as they should.
        if x.size:
            m = x.max(axis=self.axis, keepdims=True)
            m[~xp.isfinite(m)] = 0
        else:
            m = xp.zeros(_sum._keepdims_shape(x.shape, self.axis), x.dtype)
        t = x - m
        xp.exp(t, out=t)
        s = t.sum(axis=self.axis, keepdims=True)
        with numpy.errstate(divide='ignore'):  # log(0) = -inf is the right answer
            xp.log(s, out=s)
        s += m
        y = s.reshape(out_shape)
        return xp.asarray(y.astype(dtype, copy=False)),

    def backward(self, indexes, grad_outputs):
        # d/dx log(sum(exp(x))) = exp(x - y), the softmax of x.
        F = chainer.functions
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        shape = x.shape
        kshape = _sum._keepdims_shape(shape, self.axis)
        yb = F.broadcast_to(F.reshape(y, kshape), shape)
        gy = F.broadcast_to(F.reshape(grad_outputs[0], kshape), shape)
        return gy * F.exp(x - yb),


def _reduced_shape(shape, axis):
    if axis is None:
        return ()
    ndim = len(shape)
    axes = {a % ndim for a in axis}
    return tuple(s for i, s in enumerate(shape) if i not in axes)


def logsumexp(x, axis=None):
    """Log-sum-exp of array elements over the given axes.

    .. math:: y_i = \\log\\left(\\sum_j \\exp(x_{ij})\\right)

    It is computed as :math:`m + \\log\\sum_j \\exp(x_{ij} - m)` with
    :math:`m = \\max_j x_{ij}`, so large inputs do not overflow.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        axis (None, int or tuple of int): Axes to reduce; ``None`` reduces all.

    Returns:
        ~chainer.Variable: The reduced log-sum-exp.

    .. admonition:: Example

        >>> x = np.array([[0, 0], [1000, 1000]], np.float32)
        >>> F.logsumexp(x, axis=1).array  # no overflow in exp(1000)
        array([6.9314718e-01, 1.0006932e+03], dtype=float32)
    """
    return LogSumExp(axis).apply((x,))[0]
