"""Simplified DropConnect (Wan et al., 2013): a linear layer with weights dropped at random."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions.array import reshape
from chainer.functions.math import einsum
from chainer.functions.math import matmul
from chainer.functions.math import sum as _sum
from chainer.functions.normalization import batch_normalization as _bn
from chainer.utils import type_check


class SimplifiedDropconnect(function_node.FunctionNode):
    """Linear layer ``x W^T + b`` with each weight dropped with probability ``ratio``.

    The kept weights are scaled by ``1 / (1 - ratio)``. With
    ``use_batchwise_mask`` every sample gets its own mask (of shape
    ``(N,) + W.shape``); otherwise one mask of the shape of ``W`` is shared.
    ``mask`` (booleans, True to keep) is drawn in forward unless given.
    """

    def __init__(self, ratio, mask=None, use_batchwise_mask=True):
        if not 0.0 <= ratio < 1.0:
            raise ValueError(f'simplified_dropconnect: ratio must be in the range [0, 1), '
                             f'got {ratio}')
        self.ratio = ratio
        self.mask = mask
        self.use_batchwise_mask = use_batchwise_mask

    def check_type_forward(self, in_types):
        n_in = type_check.eval(in_types.size())
        type_check._argname(in_types, ('x', 'W', 'b')[:n_in])
        x_type, w_type = in_types[:2]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            w_type.ndim == 2,
            type_check.prod(x_type.shape[1:]) == w_type.shape[1],
        )
        if n_in == 3:
            b_type = in_types[2]
            type_check.expect(b_type.dtype == x_type.dtype, b_type.ndim == 1,
                              b_type.shape[0] == w_type.shape[0])

    def _scaled_mask(self, dtype):
        return self.mask * dtype.type(1. / (1 - self.ratio))

    def forward(self, inputs):
        x, W = inputs[:2]
        xp = backend.get_array_module(x)
        n = x.shape[0]
        mask_shape = ((n,) if self.use_batchwise_mask else ()) + W.shape
        if self.mask is None:
            self.mask = xp.random.random_sample(mask_shape) >= self.ratio
        elif self.mask.shape != mask_shape:
            # InvalidType, as Chainer's type check of the mask raises.
            raise type_check.InvalidType(
                f'mask.shape == {mask_shape}', f'{self.mask.shape} != {mask_shape}',
                f'simplified_dropconnect: mask must have shape {mask_shape} for x of shape '
                f'{x.shape} and W of shape {W.shape}, got {self.mask.shape}')
        dtype = numpy.promote_types(x.dtype, W.dtype)
        x_mat = x.reshape(n, W.shape[1]).astype(dtype, copy=False)
        w = self._scaled_mask(dtype) * W
        if self.use_batchwise_mask:
            y = xp.einsum('noi,ni->no', w, x_mat)
        else:
            y = x_mat @ w.T
        if len(inputs) == 3:
            y += inputs[2]
        self.retain_inputs((0, 1))
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        dtype = x.dtype
        n = x.shape[0]
        x_mat = reshape.reshape(x, (n, W.shape[1]))
        mask = self._scaled_mask(dtype)
        w = _bn.as_dtype(W, dtype)
        ret = []
        if 0 in indexes:
            if self.use_batchwise_mask:
                gx = einsum.einsum('no,noi->ni', gy, w * mask)
            else:
                gx = matmul.matmul(gy, w * mask)
            ret.append(reshape.reshape(gx, x.shape))
        if 1 in indexes:
            if self.use_batchwise_mask:
                gw = _sum.sum(einsum.einsum('no,ni->noi', gy, x_mat) * mask, axis=0)
            else:
                gw = matmul.matmul(gy, x_mat, transa=True) * mask
            ret.append(_bn.as_dtype(gw, W.dtype))
        if 2 in indexes:
            ret.append(_sum.sum(gy, axis=0))
        return ret


def simplified_dropconnect(x, W, b=None, ratio=.5, train=True, mask=None,
                           use_batchwise_mask=True):
    """Linear layer with DropConnect: each weight is dropped at random.

    .. math:: y_n = \\frac{1}{1 - p} (M_n \\odot W) x_n + b

    with :math:`M_n` a random 0/1 mask that keeps each weight with
    probability :math:`1 - p` (one mask per sample, or one for the batch).
    When ``train`` is false no weight is dropped and nothing is scaled.

    Args:
        x (~chainer.Variable or N-dimensional array): Input (float), of shape
            ``(N, ...)``; it is flattened to ``(N, in_size)``.
        W (~chainer.Variable or N-dimensional array): Weight of shape
            ``(out_size, in_size)``.
        b (~chainer.Variable or N-dimensional array): Bias of shape
            ``(out_size,)``, of the dtype of ``x``, or None.
        ratio (float): Probability of dropping a weight, in ``[0, 1)``.
        train (bool): Drop weights (True) or use them all (False).
        mask (N-dimensional array): Boolean mask to use instead of a random
            one (True keeps a weight).
        use_batchwise_mask (bool): One mask per sample (shape
            ``(N,) + W.shape``) rather than one of ``W.shape``.

    Returns:
        ~chainer.Variable: Output of shape ``(N, out_size)`` and the dtype of ``x``.

    .. admonition:: Example

        >>> x = np.ones((2, 3), np.float32)
        >>> W = np.ones((4, 3), np.float32)
        >>> F.simplified_dropconnect(x, W, train=False).array
        array([[3., 3., 3., 3.],
               [3., 3., 3., 3.]], dtype=float32)
    """
    if not train:
        ratio = 0
    node = SimplifiedDropconnect(ratio, mask, use_batchwise_mask)
    inputs = (x, W) if b is None else (x, W, b)
    return node.apply(inputs)[0]
