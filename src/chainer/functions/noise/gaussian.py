"""Sampling from a Gaussian, differentiably (the reparameterization trick)."""
from chainer import backend
from chainer import function_node
from chainer.functions.math import exponential
from chainer.utils import argument
from chainer.utils import type_check


class Gaussian(function_node.FunctionNode):
    """``mean + exp(ln_var / 2) * eps`` with standard normal ``eps`` (drawn unless given)."""

    def __init__(self, eps=None):
        self.eps = eps

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('mean', 'ln_var'))
        m_type, v_type = in_types
        type_check.expect(
            m_type.dtype.kind == 'f',
            m_type.dtype == v_type.dtype,
            m_type.shape == v_type.shape,
        )

    def forward(self, inputs):
        mean, ln_var = inputs
        xp = backend.get_array_module(mean)
        if self.eps is None:
            self.eps = xp.random.standard_normal(ln_var.shape).astype(mean.dtype, copy=False)
        elif self.eps.shape != ln_var.shape:
            raise ValueError(f'gaussian: eps must have the shape of mean {mean.shape}, '
                             f'got {self.eps.shape}')
        self.retain_inputs((1,))
        return (mean + xp.exp(ln_var * mean.dtype.type(0.5)) * self.eps).astype(mean.dtype),

    def backward(self, indexes, grad_outputs):
        ln_var, = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(gy)
        if 1 in indexes:
            # d/d ln_var of exp(ln_var / 2) * eps is half of it.
            noise = exponential.exp(ln_var * 0.5) * self.eps.astype(ln_var.dtype, copy=False)
            ret.append(gy * noise * 0.5)
        return ret


def gaussian(mean, ln_var, **kwargs):
    """Draws a sample from the Gaussian ``N(mean, exp(ln_var))``, differentiably.

    .. math:: y = \\mu + \\exp(\\ln \\sigma^2 / 2) \\, \\epsilon, \\quad \\epsilon \\sim N(0, I)

    The gradient flows to ``mean`` and ``ln_var`` with ``epsilon`` held
    fixed. The sample is drawn whatever ``config.train`` says.

    Args:
        mean (~chainer.Variable or N-dimensional array): Mean (float).
        ln_var (~chainer.Variable or N-dimensional array): Log of the
            variance, of the shape and dtype of ``mean``.
        eps (N-dimensional array): Standard normal noise to use instead of
            a new draw.
        return_eps (bool): Also return the noise used.

    Returns:
        ~chainer.Variable or tuple: The sample, and ``eps`` when
        ``return_eps`` is true.

    .. admonition:: Example

        >>> mean = np.ones(2, np.float32)
        >>> ln_var = np.full(2, np.log(4.), np.float32)
        >>> eps = np.array([1., -2.], np.float32)
        >>> F.gaussian(mean, ln_var, eps=eps).array
        array([ 3., -3.], dtype=float32)
    """
    eps, return_eps = argument.parse_kwargs(kwargs, ('eps', None), ('return_eps', False))
    node = Gaussian(eps)
    y = node.apply((mean, ln_var))[0]
    return (y, node.eps) if return_eps else y
