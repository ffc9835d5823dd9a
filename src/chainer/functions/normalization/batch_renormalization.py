"""Batch renormalization (Ioffe, 2017)."""
import warnings

from chainer import backend
from chainer import configuration
from chainer import function_node
from chainer import variable
from chainer.functions import _old_style
from chainer.functions.normalization import batch_normalization as _bn
from chainer.utils import type_check


class BatchRenormalizationFunction(_old_style.FunctionCall, function_node.FunctionNode):
    """Batch normalization corrected towards the running statistics.

    The output is ``gamma * (x_hat * r + d) + beta`` with ``x_hat`` normalized
    by the batch statistics and the correction ``r = std / running_std``
    (clipped to ``[1 / rmax, rmax]``) and ``d = (mean - running_mean) /
    running_std`` (clipped to ``[-dmax, dmax]``) held constant in backward.
    ``mean`` and ``var`` are the running statistics, updated in place when
    ``update_statistics`` is true.
    """

    def __init__(self, eps=2e-5, mean=None, var=None, decay=0.9, rmax=1, dmax=0,
                 update_statistics=True):
        self.running_mean = mean
        self.running_var = var
        self.eps = eps
        self.decay = decay
        self.rmax = rmax
        self.dmax = dmax
        self.update_statistics = update_statistics

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 3)
        _bn.expect_params(in_types, None, 'batch_renormalization', 'renorm')

    def forward(self, inputs):
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        axes = _bn._aggregate_axes(x.ndim, gamma.ndim, None)
        self.axes = axes
        shape = _bn._param_shape(x.shape, axes)
        dtype = _bn.compute_dtype(x.dtype, gamma.dtype)
        eps = dtype.type(self.eps)
        mean, d, var, inv_std = _bn.batch_stats(x.astype(dtype, copy=False), axes, self.eps)
        std = xp.sqrt(var + eps)
        running_mean = variable.as_array(self.running_mean).astype(dtype, copy=False)
        running_var = variable.as_array(self.running_var).astype(dtype, copy=False)
        running_mean = running_mean.reshape(shape)
        running_std = xp.sqrt(running_var.reshape(shape) + eps)
        r = xp.clip(std / running_std, 1 / self.rmax, self.rmax)
        shift = xp.clip((mean - running_mean) / running_std, -self.dmax, self.dmax)
        self.r, self.d = r, shift
        self._mean, self._inv_std = mean, inv_std
        y = (d * inv_std * r + shift) * gamma.reshape(shape) + beta.reshape(shape)
        if self.update_statistics:
            m = x.size // gamma.size
            _bn.update_running(self.running_mean, self.running_var, mean.reshape(gamma.shape),
                               var.reshape(gamma.shape), m, self.decay)
        self.retain_inputs((0, 1))
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        # y is batch normalization with scale gamma * r and shift beta + gamma * d.
        x, gamma = self.get_retained_inputs()
        r = self.r.reshape(gamma.shape).astype(gamma.dtype, copy=False)
        shift = self.d.reshape(gamma.shape).astype(gamma.dtype, copy=False)
        grad = _bn.BatchNormalizationGrad(self.eps, self.axes, self._mean, self._inv_std)
        gx, ggamma_r, gbeta = grad.apply((x, gamma * r, grad_outputs[0]))
        return gx, ggamma_r * r + gbeta * shift, gbeta


def batch_renormalization(x, gamma, beta, rmax, dmax, eps=2e-5, running_mean=None,
                          running_var=None, decay=0.9, update_statistics=False):
    """Batch renormalization: batch normalization that corrects towards running statistics.

    .. math::
        y = \\gamma \\left(\\frac{x - \\mu}{\\sigma} r + d\\right) + \\beta,
        \\quad r = \\mathrm{clip}(\\sigma / \\sigma_{run}, 1/r_{max}, r_{max}),
        \\quad d = \\mathrm{clip}((\\mu - \\mu_{run}) / \\sigma_{run}, -d_{max}, d_{max})

    ``r`` and ``d`` are treated as constants when differentiating.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        gamma (~chainer.Variable or N-dimensional array): Scale, of shape
            ``x.shape[1:1 + gamma.ndim]``.
        beta (~chainer.Variable or N-dimensional array): Shift, like ``gamma``.
        rmax (float): Upper bound of ``r`` (its lower bound is ``1 / rmax``).
        dmax (float): Bound of ``|d|``.
        eps (float): Added to the variances for stability.
        running_mean (N-dimensional array): Running mean (required).
        running_var (N-dimensional array): Running variance (required).
        decay (float): Decay rate of the running statistics.
        update_statistics (bool): Update ``running_mean`` and ``running_var``
            in place, as :func:`batch_normalization` does.

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.

    .. admonition:: Example

        >>> x = np.array([[0.], [2.]], np.float32)
        >>> one, zero = np.ones(1, np.float32), np.zeros(1, np.float32)
        >>> F.batch_renormalization(x, one, zero, 1, 0, eps=0,
        ...                         running_mean=zero, running_var=one).array
        array([[-1.],
               [ 1.]], dtype=float32)
    """
    if running_mean is None or running_var is None:
        raise TypeError('batch_renormalization: running_mean and running_var are required, '
                        f'got running_mean={type(running_mean).__name__}, '
                        f'running_var={type(running_var).__name__}')
    if not configuration.config.train:
        # Chainer raised AssertionError here; the type is kept.
        raise AssertionError('batch_renormalization: it is for training only (config.train is '
                             'False); use fixed_batch_normalization for inference')
    node = BatchRenormalizationFunction(eps, running_mean, running_var, decay, rmax, dmax,
                                        update_statistics)
    return node.apply((x, gamma, beta))[0]


def fixed_batch_renormalization(x, gamma, beta, mean, var, eps=2e-5):
    """Batch renormalization with fixed statistics (deprecated).

    It is :func:`fixed_batch_normalization` (with fixed statistics ``r = 1``
    and ``d = 0``) and warns that it is deprecated.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        gamma (~chainer.Variable or N-dimensional array): Scale.
        beta (~chainer.Variable or N-dimensional array): Shift.
        mean (~chainer.Variable or N-dimensional array): Mean to subtract.
        var (~chainer.Variable or N-dimensional array): Variance to divide by.
        eps (float): Added to ``var`` for stability.

    Returns:
        ~chainer.Variable: Output of the shape and dtype of ``x``.
    """
    warnings.warn('fixed_batch_renormalization is deprecated; use fixed_batch_normalization',
                  DeprecationWarning)
    return _bn.fixed_batch_normalization(x, gamma, beta, mean, var, eps)
