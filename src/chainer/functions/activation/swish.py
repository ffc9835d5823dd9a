"""Swish activation."""
import chainer
from chainer import backend
from chainer import function_node
from chainer import utils
from chainer.functions.activation import _grad_util
from chainer.functions.activation import sigmoid as _sigmoid
from chainer.functions.array import reshape as _reshape
from chainer.functions.math import sum as _sum
from chainer.utils import array as _array_util


def _sigmoid_bx(x, beta):
    # Returns (beta x, sigmoid(beta x)) on arrays, beta broadcast over x.
    xp = backend.get_array_module(x)
    half = x.dtype.type(0.5)
    bx = utils.force_array(x * beta.reshape(_grad_util.param_shape(x.ndim, beta.shape)))
    s = utils.force_array(xp.tanh(bx * half))
    s *= half
    s += half
    return bx, s


class Swish(function_node.FunctionNode):
    """Elementwise ``x * sigmoid(beta * x)`` with a learnable ``beta``."""

    def check_type_forward(self, in_types):
        _grad_util.check_param_input(in_types, ('x', 'beta'), p_first=True)

    def forward(self, inputs):
        x, beta = inputs
        self.retain_inputs((0, 1))
        return utils.force_array(x * _sigmoid_bx(x, beta)[1]),

    def backward(self, indexes, grad_outputs):
        x, beta = self.get_retained_inputs()
        gy, = grad_outputs
        if not chainer.config.enable_backprop:
            # No graph of the backward pass is recorded: one fused node is enough.
            return SwishGrad().apply((x, beta, gy))
        shape = _grad_util.param_shape(x.ndim, beta.shape)
        bx = x * _reshape.reshape(beta, shape)
        s = _sigmoid.sigmoid(bx)
        # d sigmoid(bx) = s (1 - s) d(bx); shared by both gradients.
        gds = gy * x * (s - s * s)
        ret = []
        if 0 in indexes:
            ret.append(gy * s + gds * _reshape.reshape(beta, shape))
        if 1 in indexes:
            ret.append(_reshape.reshape(_sum.sum_to(gds * x, shape), beta.shape))
        return tuple(ret)


class SwishGrad(_grad_util.FirstOrderGrad):
    """First-order gradients of Swish on arrays (used without double backprop)."""

    def forward(self, inputs):
        x, beta, gy = inputs
        bx, s = _sigmoid_bx(x, beta)
        gds = gy * x * (s - s * s)
        gx = gy * s + gds * beta.reshape(_grad_util.param_shape(x.ndim, beta.shape))
        gbeta = _array_util.sum_to(gds * x, _grad_util.param_shape(x.ndim, beta.shape))
        return utils.force_array(gx), gbeta.reshape(beta.shape)


def swish(x, beta):
    """Swish: ``x`` times the sigmoid of ``beta * x``, with a learned ``beta``.

    .. math:: f(x) = x \\cdot \\sigma(\\beta x)

    ``beta`` holds one value per element of ``x.shape[1:1 + beta.ndim]``,
    shared over the batch axis and the remaining trailing axes. See
    Ramachandran et al., *Searching for Activation Functions*
    (https://arxiv.org/abs/1710.05941).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        beta (~chainer.Variable or N-dimensional array): Parameter of shape
            ``x.shape[1:1 + beta.ndim]`` and the dtype of ``x``.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype as ``x``.

    .. admonition:: Example

        >>> x = np.array([[-1., 0., 2.]], np.float32)
        >>> beta = np.ones(3, np.float32)
        >>> F.swish(x, beta).array
        array([[-0.2689414,  0.       ,  1.7615942]], dtype=float32)
    """
    return Swish().apply((x, beta))[0]
