"""Linear (fully-connected) layer function: ``y = x W^T + b``."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check


def _passes(x, W, b=None):
    # The contract of check_type_forward, on arrays (a failure gets the full check's message).
    return (x.dtype.kind == 'f' and W.dtype.kind == 'f' and x.ndim == 2 and W.ndim == 2
            and x.shape[1] == W.shape[1]
            and (b is None or (b.dtype == x.dtype and b.ndim == 1 and b.shape[0] == W.shape[0])))


class LinearFunction(function_node.FunctionNode):
    """``y = x W^T (+ b)`` for a matrix ``x`` of shape ``(batch, in)``.

    ``x`` and ``W`` may have different float dtypes; the output (and ``b``) has ``x``'s.
    """

    def check_type_forward(self, in_types):
        if in_types.__class__ is type_check.LightTypeInfoTuple and _passes(*in_types):
            return      # the light check passed: nothing to report
        n_in = type_check.eval(in_types.size())
        if n_in not in (2, 3):
            raise type_check.InvalidType('in_types.size() in (2, 3)', f'{n_in}')
        type_check._argname(in_types, ('x', 'W', 'b')[:n_in])
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 2,
            w_type.ndim == 2,
            x_type.shape[1] == w_type.shape[1],
        )
        if n_in == 3:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 1,
                b_type.shape[0] == w_type.shape[0],
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        xp = backend.get_array_module(x, W)
        y = xp.matmul(x, W.T)
        if y.dtype != x.dtype:
            y = y.astype(x.dtype)
        if len(inputs) == 3:
            y += inputs[2]
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        # One node per gradient (no transposes around a LinearFunction): the first backward
        # of a double backprop records half as many nodes.
        if 0 in indexes:
            ret.append(LinearGradData().apply((W, gy))[0])
        if 1 in indexes:
            ret.append(LinearGradWeight(W.dtype).apply((x, gy))[0])
        if 2 in indexes:
            ret.append(chainer.functions.sum(gy, axis=0))
        return ret


class LinearGradData(function_node.FunctionNode):
    """``gx = gy W``, the gradient of :class:`LinearFunction` in ``x``, from ``(W, gy)``.

    It has ``gy``'s dtype (that of ``x``); being bilinear in ``W`` and ``gy``, its
    gradients are a :class:`LinearGradWeight` and a :class:`LinearFunction`.
    """

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        W, gy = inputs
        gx = backend.get_array_module(W, gy).matmul(gy, W)
        return gx.astype(gy.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        W, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LinearGradWeight(W.dtype).apply((ggx, gy))[0])
        if 1 in indexes:
            ret.append(LinearFunction().apply((ggx, W))[0])
        return ret


class LinearGradWeight(function_node.FunctionNode):
    """``gW = gy^T x``, the gradient of :class:`LinearFunction` in ``W``, from ``(x, gy)``.

    Args:
        w_dtype: The dtype of ``W`` (and of the result).
    """

    def __init__(self, w_dtype):
        self._w_dtype = w_dtype

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gW = backend.get_array_module(x, gy).matmul(gy.T, x)
        return gW.astype(self._w_dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(LinearGradData().apply((ggW, gy))[0])
        if 1 in indexes:
            ret.append(LinearFunction().apply((x, ggW))[0])
        return ret


def linear(x, W, b=None, n_batch_axes=1):
    """Linear function (fully-connected layer): :math:`y = x W^\\top + b`.

    The first ``n_batch_axes`` axes of ``x`` are batch axes; the others are
    flattened into one input vector per sample, whose length must equal
    ``W.shape[1]``.

    Args:
        x (~chainer.Variable or N-dimensional array): Input of shape
            ``(s_1, ..., s_n, ...)`` with ``n = n_batch_axes``.
        W (~chainer.Variable or N-dimensional array): Weight of shape
            ``(out_size, in_size)``.
        b (~chainer.Variable or N-dimensional array): Bias of shape
            ``(out_size,)`` and ``x``'s dtype, or ``None``.
        n_batch_axes (int): Number of leading batch axes of ``x`` (at least 1).

    Returns:
        ~chainer.Variable: Output of shape ``(s_1, ..., s_n, out_size)``.

    .. admonition:: Example

        >>> x = np.ones((2, 3), np.float32)
        >>> W = np.arange(6, dtype=np.float32).reshape(2, 3)
        >>> F.linear(x, W, np.zeros(2, np.float32)).array
        array([[ 3., 12.],
               [ 3., 12.]], dtype=float32)
    """
    if n_batch_axes <= 0:
        raise ValueError(f'n_batch_axes should be greater than 0. (linear: got '
                         f'n_batch_axes={n_batch_axes})')
    F = chainer.functions
    batch_shape = None

    def width(n, w):
        # -1, as Chainer writes the reshapes (an exported ONNX graph keeps them); an empty
        # batch leaves -1 undetermined, so it gets the width itself
        return -1 if n else int(w)

    try:
        x_ndim = x.ndim
    except AttributeError:
        raise _checks.not_an_array('linear', 'x', x) from None
    if n_batch_axes > 1:
        batch_shape = x.shape[:n_batch_axes]
        n = int(numpy.prod(batch_shape))
        x = F.reshape(x, (n, width(n, numpy.prod(x.shape[n_batch_axes:]))))
    elif x_ndim > 2:
        x = F.reshape(x, (x.shape[0], width(x.shape[0], numpy.prod(x.shape[1:]))))
    args = (x, W) if b is None else (x, W, b)
    y, = LinearFunction().apply(args)
    if batch_shape is not None:
        y = F.reshape(y, batch_shape + (width(y.shape[0], y.shape[1]),))
    return y
