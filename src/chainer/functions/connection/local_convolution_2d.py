"""Locally-connected 2-D convolution: a separate filter bank at every output position."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions.array import im2col as im2col_module
from chainer.utils import conv
from chainer.utils import conv_nd
from chainer.utils import type_check


class LocalConvolution2DFunction(function_node.FunctionNode):
    """Locally-connected convolution ``(x, W[, b]) -> y`` without padding.

    ``y[n, o, i, j] = sum_{c, p, q} W[o, i, j, c, p, q] x[n, c, i sy + p, j sx + q] + b[o, i, j]``;
    the product is one batched GEMM over the output positions: the patches
    ``(P, n, c kh kw)`` times the filters ``(P, c kh kw, out_c)``.
    """

    def __init__(self, stride=1):
        self.sy, self.sx = conv_nd.as_tuple(stride, 2)

    def check_type_forward(self, in_types):
        n_in = in_types.size()
        type_check.expect(2 <= n_in, n_in <= 3)
        # (unnamed: Chainer's messages say in_types[i] for this function)
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 4,
            w_type.ndim == 6,
            x_type.shape[1] == w_type.shape[3],
        )
        if type_check.eval(n_in) == 3:
            b_type = in_types[2]
            type_check.expect(
                b_type.dtype == x_type.dtype,
                b_type.ndim == 3,
                b_type.shape == w_type.shape[:3],
            )

    def _geometry(self, x_shape, w_shape):
        n, c, h, w = x_shape
        out_c, out_h, out_w, _, kh, kw = w_shape
        exp_h = conv.get_conv_outsize(h, kh, self.sy, 0)
        exp_w = conv.get_conv_outsize(w, kw, self.sx, 0)
        if exp_h < 1 or exp_w < 1 or (exp_h, exp_w) != (out_h, out_w):
            raise ValueError(
                f'local_convolution_2d: W.shape[1:3] must be the output size computed from '
                f'x ({h}x{w}), kernel {kh}x{kw} and stride ({self.sy}, {self.sx}), which is '
                f'{exp_h}x{exp_w}, got {out_h}x{out_w}')
        return n, c, out_c, out_h, out_w, kh, kw

    def forward(self, inputs):
        x, W = inputs[:2]
        xp = backend.get_array_module(x, W)
        n, c, out_c, out_h, out_w, kh, kw = self._geometry(x.shape, W.shape)
        self.retain_inputs((0, 1))
        positions, k = out_h * out_w, c * kh * kw
        # float16 is multiplied in float32 (the sums run over c * kh * kw terms).
        dtype = numpy.promote_types(numpy.result_type(x.dtype, W.dtype), numpy.float32)
        col = conv.im2col_cpu(x, kh, kw, self.sy, self.sx, 0, 0).astype(dtype, copy=False)
        col = col.reshape(n, k, positions).transpose(2, 0, 1)
        w = W.astype(dtype, copy=False).reshape(out_c, positions, k).transpose(1, 2, 0)
        y = xp.matmul(col, w).transpose(1, 2, 0).reshape(n, out_c, out_h, out_w)
        if len(inputs) == 3:
            y = y + inputs[2]
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        n, c, out_c, out_h, out_w, kh, kw = self._geometry(x.shape, W.shape)
        positions, k = out_h * out_w, c * kh * kw
        gy_p = F.transpose(F.reshape(gy, (n, out_c, positions)), (2, 0, 1))  # (P, n, out_c)
        ret = []
        if 0 in indexes:
            w_p = F.transpose(F.reshape(W, (out_c, positions, k)), (1, 0, 2))  # (P, out_c, k)
            gcol = F.matmul(gy_p, w_p)  # (P, n, k)
            gcol = F.reshape(F.transpose(gcol, (1, 2, 0)), (n, k, out_h, out_w))
            gcol = _cast(gcol, x.dtype)
            # col2im, the adjoint of the patch extraction (itself differentiable).
            patches = im2col_module.Im2Col((kh, kw), (self.sy, self.sx), 0, False, 1)
            patches._in_hw = x.shape[2:]
            ret.append(im2col_module.Im2ColGrad(patches).apply((gcol,))[0])
        if 1 in indexes:
            col = F.im2col(x, (kh, kw), (self.sy, self.sx))
            col_p = F.transpose(F.reshape(col, (n, k, positions)), (2, 0, 1))  # (P, n, k)
            gw = F.matmul(gy_p, col_p, transa=True)  # (P, out_c, k)
            gw = F.reshape(F.transpose(gw, (1, 0, 2)), W.shape)
            ret.append(_cast(gw, W.dtype))
        if 2 in indexes:
            ret.append(F.sum(gy, axis=0))
        return ret


def _cast(v, dtype):
    return v if v.dtype == dtype else chainer.functions.cast(v, dtype)


def local_convolution_2d(x, W, b=None, stride=1):
    """Two-dimensional locally-connected layer: a convolution whose filters
    are not shared between output positions.

    .. math::
        y_{n, o, i, j} = \\sum_{c, p, q} W_{o, i, j, c, p, q}\\,
        x_{n, c, i s_y + p, j s_x + q} + b_{o, i, j}.

    There is no padding: the output size is
    ``out_h = (h - kh) // sy + 1`` and ``out_w = (w - kw) // sx + 1``, and it
    must be the size that ``W`` was made for.

    Args:
        x (~chainer.Variable or N-dimensional array): Input of shape
            ``(n, c, h, w)``.
        W (~chainer.Variable or N-dimensional array): Filters of shape
            ``(out_c, out_h, out_w, c, kh, kw)``; its dtype may differ from
            ``x``'s.
        b (~chainer.Variable or N-dimensional array): Optional bias of shape
            ``(out_c, out_h, out_w)``, of the dtype of ``x``.
        stride (int or pair of ints): Stride ``(sy, sx)`` of the windows.

    Returns:
        ~chainer.Variable: Output of shape ``(n, out_c, out_h, out_w)`` and the
        dtype of ``x``.

    .. admonition:: Example

        >>> x = np.ones((1, 2, 3, 3), np.float32)
        >>> W = np.ones((4, 2, 2, 2, 2, 2), np.float32)
        >>> y = F.local_convolution_2d(x, W)
        >>> y.shape
        (1, 4, 2, 2)
        >>> float(y.array[0, 0, 0, 0])           # 2 channels x 2 x 2 taps
        8.0
    """
    inputs = (x, W) if b is None else (x, W, b)
    return LocalConvolution2DFunction(stride).apply(inputs)[0]
