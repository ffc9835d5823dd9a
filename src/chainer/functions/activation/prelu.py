"""Parametric rectified linear unit."""
import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.activation import _grad_util
from chainer.functions.array import reshape as _reshape
from chainer.functions.math import sum as _sum
from chainer.utils import array as _array_util


class PReLUFunction(function_node.FunctionNode):
    """Leaky rectifier with learnable slopes ``W`` for the negative part."""

    def check_type_forward(self, in_types):
        _grad_util.check_param_input(in_types, ('x', 'W'))

    def forward(self, inputs):
        x, W = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        W = W.reshape(_grad_util.param_shape(x.ndim, W.shape))
        return xp.where(x >= 0, x, x * W),

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        if not chainer.config.enable_backprop:
            # No graph of the backward pass is recorded: one fused node is enough.
            return PReLUFunctionGrad().apply((x, W, gy))
        neg = (x.array < 0).astype(x.dtype)
        ret = []
        if 0 in indexes:
            Wb = _reshape.reshape(W, _grad_util.param_shape(x.ndim, W.shape))
            # slope is 1 where x >= 0 and W elsewhere: 1 + neg * (W - 1)
            ret.append(gy + gy * neg * (Wb - 1))
        if 1 in indexes:
            gW = _sum.sum_to(gy * x * neg, _grad_util.param_shape(x.ndim, W.shape))
            ret.append(_reshape.reshape(gW, W.shape))
        return tuple(ret)


class PReLUFunctionGrad(_grad_util.FirstOrderGrad):
    """First-order gradients of PReLU on arrays (used without double backprop)."""

    def forward(self, inputs):
        x, W, gy = inputs
        xp = backend.get_array_module(x)
        shape = _grad_util.param_shape(x.ndim, W.shape)
        neg = x < 0
        gx = xp.where(neg, gy * W.reshape(shape), gy)
        gW = _array_util.sum_to(gy * x * neg, shape).reshape(W.shape)
        return gx, gW


def prelu(x, W):
    """Leaky rectifier whose negative slopes ``W`` are learned (PReLU).

    .. math::
        f(x) = \\begin{cases} x & (x \\ge 0) \\\\ W x & (x < 0) \\end{cases}

    ``W`` holds one slope per element of ``x.shape[1:1 + W.ndim]``, shared
    over the batch axis and the remaining trailing axes. See He et al.,
    *Delving Deep into Rectifiers* (https://arxiv.org/abs/1502.01852).

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float).
        W (~chainer.Variable or N-dimensional array): Slopes of the negative
            part, of shape ``x.shape[1:1 + W.ndim]`` and the dtype of ``x``.

    Returns:
        ~chainer.Variable: Output of the same shape and dtype as ``x``.

    .. admonition:: Example

        >>> x = np.array([[-1., 2.], [-3., -4.]], np.float32)
        >>> W = np.array([0.1, 0.5], np.float32)
        >>> F.prelu(x, W).array
        array([[-0.1,  2. ],
               [-0.3, -2. ]], dtype=float32)
    """
    return PReLUFunction().apply((x, W))[0]
