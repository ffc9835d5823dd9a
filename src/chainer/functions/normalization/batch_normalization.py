"""Batch normalization, by the statistics of the batch or by given ones."""
import warnings

import numpy

from chainer import backend
from chainer import function_node
from chainer import variable
from chainer.functions import _checks
from chainer.functions.array import broadcast
from chainer.functions.array import cast as _cast
from chainer.functions.array import reshape
from chainer.functions.math import average
from chainer.functions.math import sqrt
from chainer.functions.math import sum as _sum
from chainer.utils import argument
from chainer.utils import type_check

_TRAIN_MESSAGE = 'train argument is not supported anymore. Use chainer.using_config'


def _normalize_axis(axis, func):
    axis = _checks.axis_arg(func, axis, none=True, tuple_=True)
    return (axis,) if isinstance(axis, int) else axis


def _aggregate_axes(x_ndim, gamma_ndim, axis):
    """Axes of ``x`` that are averaged over: the given ones, or else the first
    one and those after the ``gamma_ndim`` axes that follow it."""
    if axis is None:
        return (0,) + tuple(range(gamma_ndim + 1, x_ndim))
    return tuple(sorted(a % x_ndim for a in axis))


def _param_shape(x_shape, axes):
    """Shape that broadcasts a parameter against ``x`` (1 on the averaged axes)."""
    return tuple(1 if i in axes else s for i, s in enumerate(x_shape))


def compute_dtype(*dtypes):
    """The dtype normalization arithmetic runs in: that of the inputs, at least float32.

    float16 statistics lose too much (a sum of squares over a batch easily
    overflows), so float16 data is computed in float32 and cast back.
    """
    return numpy.promote_types(numpy.result_type(*dtypes), numpy.float32)


def batch_stats(x, axes, eps):
    """Mean, centred ``x``, variance and ``1 / sqrt(var + eps)`` of ``x`` over ``axes``.

    The statistics keep the averaged axes (size 1), so they broadcast against ``x``.
    """
    xp = backend.get_array_module(x)
    mean = x.mean(axis=axes, keepdims=True)
    d = x - mean
    var = xp.square(d).mean(axis=axes, keepdims=True)
    return mean, d, var, 1 / xp.sqrt(var + x.dtype.type(eps))


def as_dtype(v, dtype):
    """``v`` (a Variable or None) cast to ``dtype``, without a node when it has it already."""
    return v if v is None or v.dtype == dtype else _cast.cast(v, dtype)


def expect_params(in_types, axis, func, style='fixed'):
    """Type-checks ``x`` against parameters ``in_types[1:]`` of one common shape.

    The conditions come in the order of Chainer's messages, which differs between
    ``batch_normalization`` (``style='batch'``), ``batch_renormalization`` (``'renorm'``)
    and the fixed (inference) variants (``'fixed'``).
    """
    x_type, gamma_type = in_types[0], in_types[1]
    x_ndim = type_check.eval(x_type.ndim)
    gamma_ndim = type_check.eval(gamma_type.ndim)
    type_check.expect(x_type.dtype.kind == 'f')
    if style == 'renorm':
        type_check.expect(x_type.ndim >= gamma_type.ndim + 1,
                          x_type.shape[1:1 + gamma_ndim] == gamma_type.shape)
    type_check.expect(gamma_type.dtype.kind == 'f')
    for p_type in in_types[2:]:
        if style == 'fixed':
            type_check.expect(p_type.dtype == gamma_type.dtype, p_type.shape == gamma_type.shape)
        else:
            type_check.expect(gamma_type.dtype == p_type.dtype, gamma_type.shape == p_type.shape)
    if axis is None and style != 'renorm':
        # the parameters' axes (1, 2, ... as many as gamma has) that x has
        type_check.expect(gamma_type.ndim == len(range(1, min(1 + gamma_ndim, x_ndim))))
    if axis is None:
        if style == 'renorm':
            type_check.expect(x_type.ndim >= gamma_type.ndim + 1,
                              x_type.shape[1:1 + gamma_ndim] == gamma_type.shape)
        else:
            # (axis by axis, as Chainer's messages say it)
            type_check.expect(x_type.ndim >= gamma_type.ndim + 1)
            for i in range(gamma_ndim):
                type_check.expect(x_type.shape[i + 1] == gamma_type.shape[i])
        return
    if not all(-x_ndim <= a < x_ndim for a in axis):
        # Chainer's first condition on an axis outside x: the parameters have the other axes
        type_check.expect(gamma_type.ndim == len([i for i in range(x_ndim) if i not in axis]))
    for a in axis:
        _checks.expect_axis(x_type, a, func=func)
    axes = _aggregate_axes(x_ndim, gamma_ndim, axis)
    type_check.expect(x_type.ndim == gamma_type.ndim + len(axes))
    kept = [i for i in range(x_ndim) if i not in axes]
    for j, i in enumerate(kept):
        type_check.expect(x_type.shape[i] == gamma_type.shape[j])


def update_running(running_mean, running_var, mean, var, m, decay):
    """Moves the running statistics (arrays or None, updated in place) towards a batch's.

    The running variance estimates the population's, so the batch variance is
    unbiased by ``m / (m - 1)`` (``m`` values averaged per channel).
    """
    if running_mean is not None:
        running = variable.as_array(running_mean)
        running *= decay
        running += (1 - decay) * mean
    if running_var is not None:
        running = variable.as_array(running_var)
        running *= decay
        running += (1 - decay) * (m / max(m - 1, 1)) * var


def _per_channel(x, gamma):
    """Values averaged per channel, at least 1: gradients divide by it, and an empty batch
    (or no channel) has empty gradients anyway."""
    return max(x.size // gamma.size, 1) if gamma.size else 1


def _key_axis(func):
    # Chainer's ``key_axis``: the axes of the parameters (those not reduced).
    return tuple(i for i in range(len(func.inputs[0].shape)) if i not in func.axes)


def _expander(func):
    # Chainer's ``expander``: the index that broadcasts a parameter over ``x``.
    key = _key_axis(func)
    return tuple(slice(None) if i in key else None for i in range(len(func.inputs[0].shape)))


class BatchNormalization(function_node.FunctionNode):
    """Normalizes by the mean and variance of the batch, then scales and shifts.

    ``mean`` and ``var``, when given, are running statistics updated in place.
    """

    def __init__(self, eps=2e-5, mean=None, var=None, decay=0.9, axis=None):
        self.running_mean = mean
        self.running_var = var
        self.eps = eps
        self.decay = decay
        self.axis = _normalize_axis(axis, 'batch_normalization')

    key_axis = property(_key_axis)
    expander = property(_expander)

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 3)
        expect_params(in_types, self.axis, 'batch_normalization', 'batch')

    def forward(self, inputs):
        x, gamma, beta = inputs
        axes = _aggregate_axes(x.ndim, gamma.ndim, self.axis)
        self.axes = self.axis = axes    # Chainer's ``axis`` holds the reduced axes once known
        shape = _param_shape(x.shape, axes)
        m = x.size // gamma.size
        if m == 1:
            warnings.warn(
                f'batch_normalization: each of the {gamma.size} channels of x (shape {x.shape}) '
                'has a single value to average over, so the output is beta and the gradients '
                'are 0; use a batch of more than one sample', UserWarning)
        dtype = compute_dtype(x.dtype, gamma.dtype)
        mean, d, var, inv_std = batch_stats(x.astype(dtype, copy=False), axes, self.eps)
        y = d * (gamma.reshape(shape).astype(dtype, copy=False) * inv_std)
        y += beta.reshape(shape)
        self._mean, self._inv_std = mean, inv_std
        self.mean = mean.reshape(gamma.shape)
        self.var = var.reshape(gamma.shape)
        self.inv_std = inv_std.reshape(gamma.shape)
        update_running(self.running_mean, self.running_var, self.mean, self.var, m, self.decay)
        self.retain_inputs((0, 1))
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        grad = BatchNormalizationGrad(self.eps, self.axes, self._mean, self._inv_std)
        return grad.apply((x, gamma, grad_outputs[0]))


class BatchNormalizationGrad(function_node.FunctionNode):
    """Gradients ``(gx, ggamma, gbeta)`` of batch normalization from ``(x, gamma, gy)``.

    With ``x_hat = (x - mean) * inv_std`` and ``m`` the number of values
    averaged per channel: ``gbeta = sum(gy)``, ``ggamma = sum(gy * x_hat)`` and
    ``gx = gamma * inv_std * (gy - (x_hat * ggamma + gbeta) / m)``.
    ``mean`` and ``inv_std`` (broadcastable to ``x``) are the statistics of
    ``x``; they are recomputed when None.
    """

    def __init__(self, eps, axes, mean=None, inv_std=None):
        self.eps = eps
        self.axes = axes
        self.mean = mean
        self.inv_std = inv_std

    def forward(self, inputs):
        x, gamma, gy = inputs
        self.retain_inputs((0, 1, 2))
        axes = self.axes
        shape = _param_shape(x.shape, axes)
        dtype = compute_dtype(x.dtype, gamma.dtype)
        xc = x.astype(dtype, copy=False)
        mean, inv_std = self.mean, self.inv_std
        if mean is None:
            mean, _, _, inv_std = batch_stats(xc, axes, self.eps)
        gyc = gy.astype(dtype, copy=False)
        x_hat = (xc - mean) * inv_std
        gbeta = gyc.sum(axis=axes, keepdims=True)
        ggamma = (gyc * x_hat).sum(axis=axes, keepdims=True)
        m = _per_channel(x, gamma)
        gx = x_hat * ggamma
        gx += gbeta
        gx *= -1 / m
        gx += gyc
        gx *= gamma.reshape(shape) * inv_std
        return (gx.astype(x.dtype, copy=False), ggamma.reshape(gamma.shape).astype(gamma.dtype),
                gbeta.reshape(gamma.shape).astype(gamma.dtype))

    def backward(self, indexes, grad_outputs):
        x, gamma, gy = self.get_retained_inputs()
        ggx, gggamma, ggbeta = grad_outputs
        axes = self.axes
        shape = _param_shape(x.shape, axes)
        m = _per_channel(x, gamma)
        dtype = compute_dtype(x.dtype, gamma.dtype)

        def c(v):   # into the compute dtype
            return as_dtype(v, dtype)

        def param(v):
            return reshape.reshape(c(v), shape)

        def total(v):
            return _sum.sum(v, axis=axes, keepdims=True)

        def mean(v):
            return average.mean(v, axis=axes, keepdims=True)

        xc, gyc, ggx = c(x), c(gy), c(ggx)
        g_r = param(gamma)
        # The statistics are recomputed on Variables, so that this gradient is
        # itself differentiable in x.
        d = xc - mean(xc)
        inv_std = sqrt.rsqrt(mean(d * d) + dtype.type(self.eps))
        x_hat = d * inv_std
        gbeta = total(gyc)
        ggamma = total(gyc * x_hat)           # Q
        scale = g_r * inv_std                 # gamma / std

        h = g_x = g_gamma = None
        g_gy = []
        if ggx is not None:
            p = total(ggx * x_hat)
            s = total(ggx)
            g_gy.append(scale * (ggx - (x_hat * p + s) / m))
            g_gamma = inv_std * total(ggx * (gyc - (x_hat * ggamma + gbeta) / m))
            h = -(scale / m) * (ggx * ggamma + p * gyc)
            ggx_dot_gx = scale * (total(ggx * gyc) - (p * ggamma + s * gbeta) / m)
            g_x = -(inv_std / m) * x_hat * ggx_dot_gx
        if gggamma is not None:
            gg_r = param(gggamma)
            g_gy.append(gg_r * x_hat)
            h = gg_r * gyc if h is None else h + gg_r * gyc
        if ggbeta is not None:
            g_gy.append(broadcast.broadcast_to(param(ggbeta), x.shape))
        if h is not None:
            # The gradient through x_hat (x_hat depends on x through mean and inv_std).
            g_h = inv_std * (h - mean(h) - x_hat * mean(h * x_hat))
            g_x = g_h if g_x is None else g_x + g_h

        ret = []
        if 0 in indexes:
            ret.append(None if g_x is None else as_dtype(g_x, x.dtype))
        if 1 in indexes:
            ret.append(None if g_gamma is None
                       else as_dtype(reshape.reshape(g_gamma, gamma.shape), gamma.dtype))
        if 2 in indexes:
            if g_gy:
                total_gy = g_gy[0]
                for t in g_gy[1:]:
                    total_gy = total_gy + t
                ret.append(as_dtype(total_gy, gy.dtype))
            else:
                ret.append(None)
        return tuple(ret)


class FixedBatchNormalization(function_node.FunctionNode):
    """Normalizes by given ``mean`` and ``var`` (differentiable inputs), scales and shifts."""

    def __init__(self, eps=2e-5, axis=None):
        self.eps = eps
        self.axis = _normalize_axis(axis, 'fixed_batch_normalization')

    key_axis = property(_key_axis)
    expander = property(_expander)

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 5)
        expect_params(in_types, self.axis, 'fixed_batch_normalization')

    def forward(self, inputs):
        x, gamma, beta, mean, var = inputs
        xp = backend.get_array_module(x)
        self.axes = self.axis = axes = _aggregate_axes(x.ndim, gamma.ndim, self.axis)
        shape = _param_shape(x.shape, axes)
        dtype = compute_dtype(x.dtype, gamma.dtype)
        inv_std = 1 / xp.sqrt(var.astype(dtype, copy=False) + dtype.type(self.eps))
        scale = (gamma * inv_std).reshape(shape)
        y = (x.astype(dtype, copy=False) - mean.reshape(shape)) * scale
        y += beta.reshape(shape)
        self.retain_inputs((0, 1, 3, 4))
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma, mean, var = self.get_retained_inputs()
        gy, = grad_outputs
        axes = self.axes
        shape = _param_shape(x.shape, axes)
        dtype = compute_dtype(x.dtype, gamma.dtype)
        xc = as_dtype(x, dtype)
        gyc = as_dtype(gy, dtype)
        gamma, mean, var = (as_dtype(v, dtype) for v in (gamma, mean, var))
        inv_std = sqrt.rsqrt(var + dtype.type(self.eps))
        ret = {}
        if 0 in indexes:
            ret[0] = as_dtype(gyc * reshape.reshape(gamma * inv_std, shape), x.dtype)
        gbeta = _sum.sum(gyc, axis=axes)
        if 1 in indexes or 4 in indexes:
            x_hat = (xc - reshape.reshape(mean, shape)) * reshape.reshape(inv_std, shape)
            ggamma = reshape.reshape(_sum.sum(gyc * x_hat, axis=axes), gamma.shape)
            ret[1] = ggamma
            # y depends on var through inv_std: d inv_std / d var = -inv_std ** 3 / 2.
            ret[4] = -0.5 * gamma * inv_std * inv_std * ggamma
        ret[2] = reshape.reshape(gbeta, gamma.shape)
        if 3 in indexes:
            ret[3] = -ret[2] * gamma * inv_std
        p_dtype = self.inputs[1].dtype
        return tuple(ret[i] if i == 0 else as_dtype(ret[i], p_dtype) for i in indexes)


def batch_normalization(x, gamma, beta, **kwargs):
    """Batch normalization: normalizes ``x`` by its mean and variance over the batch.

    .. math::
        y = \\gamma \\frac{x - \\mu}{\\sqrt{\\sigma^2 + \\epsilon}} + \\beta

    where :math:`\\mu` and :math:`\\sigma^2` are the mean and (biased)
    variance of ``x`` over the batch axis and the axes after those of
    ``gamma`` (or over ``axis``). When ``running_mean`` and ``running_var``
    are given, they are updated in place:
    ``running_mean = decay * running_mean + (1 - decay) * mu`` and the same
    for ``running_var`` with the unbiased variance ``sigma^2 * m / (m - 1)``
    (``m`` values averaged per channel).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        gamma (~chainer.Variable or N-dimensional array): Scale; its shape is
            that of the normalized channels, ``x.shape[1:1 + gamma.ndim]``
            (or the axes of ``x`` not in ``axis``).
        beta (~chainer.Variable or N-dimensional array): Shift, like ``gamma``.
        eps (float): Added to the variance for stability (default ``2e-5``).
        running_mean (N-dimensional array): Running mean, updated in place.
        running_var (N-dimensional array): Running variance, updated in place.
        decay (float): Decay rate of the running statistics (default 0.9).
        axis (int or tuple of int): Axes averaged over; by default the first
            axis and those after the ones of ``gamma``.

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[0., 2.], [2., 4.]], np.float32)
        >>> gamma, beta = np.ones(2, np.float32), np.zeros(2, np.float32)
        >>> F.batch_normalization(x, gamma, beta, eps=0).array
        array([[-1., -1.],
               [ 1.,  1.]], dtype=float32)
    """
    eps, running_mean, running_var, decay, axis = argument.parse_kwargs(
        kwargs, ('eps', 2e-5), ('running_mean', None), ('running_var', None), ('decay', 0.9),
        ('axis', None), train=_TRAIN_MESSAGE)
    node = BatchNormalization(eps, running_mean, running_var, decay, axis)
    return node.apply((x, gamma, beta))[0]


def fixed_batch_normalization(x, gamma, beta, mean, var, eps=2e-5, axis=None):
    """Batch normalization with fixed statistics (inference).

    .. math::
        y = \\gamma \\frac{x - \\mathrm{mean}}{\\sqrt{\\mathrm{var} + \\epsilon}} + \\beta

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        gamma (~chainer.Variable or N-dimensional array): Scale.
        beta (~chainer.Variable or N-dimensional array): Shift.
        mean (~chainer.Variable or N-dimensional array): Mean to subtract.
        var (~chainer.Variable or N-dimensional array): Variance to divide by.
        eps (float): Added to ``var`` for stability.
        axis (int or tuple of int): Axes the parameters are broadcast along
            (see :func:`batch_normalization`).

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[1., 3.]], np.float32)
        >>> one, zero = np.ones(2, np.float32), np.zeros(2, np.float32)
        >>> F.fixed_batch_normalization(x, one, zero, one, 4 * one, eps=0).array
        array([[0., 1.]], dtype=float32)
    """
    return FixedBatchNormalization(eps, axis).apply((x, gamma, beta, mean, var))[0]
