"""Bilinear function of two inputs: ``y_l = e1^T W_l e2`` (+ linear terms and a bias)."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.array import reshape
from chainer.functions.math import einsum
from chainer.functions.math import matmul
from chainer.functions.math import sum as _sum
from chainer.utils import type_check


class BilinearFunction(function_node.FunctionNode):
    """``y[n, l] = sum_jk e1[n, j] e2[n, k] W[j, k, l]``, plus ``e1 V1 + e2 V2 + b``
    when the three of them are given."""

    def check_type_forward(self, in_types):
        n_in = type_check.eval(in_types.size())
        if n_in not in (3, 6):
            raise type_check.InvalidType(
                'in_types.size() in (3, 6)', f'in_types.size() == {n_in}',
                f'bilinear: takes e1, e2, W and optionally V1, V2, b (3 or 6 inputs), '
                f'got {n_in}')
        # (unnamed: Chainer's messages say in_types[i] for this function)
        e1_type, e2_type, w_type = in_types[:3]
        for t in in_types[:3]:
            _checks.expect_kind_of(t, numpy.float32)
        type_check.expect(
            e1_type.dtype.kind == 'f',
            e1_type.ndim >= 2,
            e2_type.ndim >= 2,
            e1_type.shape[0] == e2_type.shape[0],
            w_type.ndim == 3,
            type_check.prod(e1_type.shape[1:]) == w_type.shape[0],
            type_check.prod(e2_type.shape[1:]) == w_type.shape[1],
        )
        for t in in_types[1:]:
            type_check.expect(t.dtype == e1_type.dtype)
        if n_in == 6:
            v1_type, v2_type, b_type = in_types[3:]
            type_check.expect(
                v1_type.ndim == 2,
                v2_type.ndim == 2,
                b_type.ndim == 1,
                v1_type.shape[0] == w_type.shape[0],
                v1_type.shape[1] == w_type.shape[2],
                v2_type.shape[0] == w_type.shape[1],
                v2_type.shape[1] == w_type.shape[2],
                b_type.shape[0] == w_type.shape[2],
            )

    def forward(self, inputs):
        e1, e2, W = inputs[:3]
        xp = backend.get_array_module(e1)
        n = e1.shape[0]
        j, k, l_ = W.shape
        e1 = e1.reshape(n, j)
        e2 = e2.reshape(n, k)
        # (e1 W) first: an (n, k, l) product, then one batched k-vector product per sample.
        e1w = (e1 @ W.reshape(j, k * l_)).reshape(n, k, l_)
        y = xp.matmul(e2[:, None, :], e1w)[:, 0, :]
        if len(inputs) == 6:
            V1, V2, b = inputs[3:]
            y += e1 @ V1
            y += e2 @ V2
            y += b
        self.retain_inputs((0, 1, 2, 3, 4) if len(inputs) == 6 else (0, 1, 2))
        return y,

    def backward(self, indexes, grad_outputs):
        retained = self.get_retained_inputs()
        e1, e2, W = retained[:3]
        gy, = grad_outputs
        n = e1.shape[0]
        # explicit widths (not -1), which a size-0 batch leaves undetermined
        e1m = reshape.reshape(e1, (n, W.shape[0]))
        e2m = reshape.reshape(e2, (n, W.shape[1]))
        ret = []
        if 0 in indexes:
            ge1 = einsum.einsum('nl,nk,jkl->nj', gy, e2m, W)
            if len(retained) == 5:
                ge1 = ge1 + matmul.matmul(gy, retained[3], transb=True)
            ret.append(reshape.reshape(ge1, e1.shape))
        if 1 in indexes:
            ge2 = einsum.einsum('nl,nj,jkl->nk', gy, e1m, W)
            if len(retained) == 5:
                ge2 = ge2 + matmul.matmul(gy, retained[4], transb=True)
            ret.append(reshape.reshape(ge2, e2.shape))
        if 2 in indexes:
            ret.append(einsum.einsum('nj,nk,nl->jkl', e1m, e2m, gy))
        if 3 in indexes:
            ret.append(matmul.matmul(e1m, gy, transa=True))
        if 4 in indexes:
            ret.append(matmul.matmul(e2m, gy, transa=True))
        if 5 in indexes:
            ret.append(_sum.sum(gy, axis=0))
        return ret


def bilinear(e1, e2, W, V1=None, V2=None, b=None):
    """Bilinear function of two batches of vectors.

    .. math::
        y_{nl} = \\sum_{jk} e^1_{nj} e^2_{nk} W_{jkl}
                 + \\sum_j e^1_{nj} V^1_{jl} + \\sum_k e^2_{nk} V^2_{kl} + b_l

    (the last three terms only when ``V1``, ``V2`` and ``b`` are given).

    Args:
        e1 (~chainer.Variable or N-dimensional array): Left input (float),
            of shape ``(N, J)`` (trailing axes are flattened).
        e2 (~chainer.Variable or N-dimensional array): Right input, of shape
            ``(N, K)`` (trailing axes are flattened).
        W (~chainer.Variable or N-dimensional array): Weight of shape ``(J, K, L)``.
        V1 (~chainer.Variable or N-dimensional array): Weight of shape ``(J, L)``.
        V2 (~chainer.Variable or N-dimensional array): Weight of shape ``(K, L)``.
        b (~chainer.Variable or N-dimensional array): Bias of shape ``(L,)``.

    Returns:
        ~chainer.Variable: Output of shape ``(N, L)``.

    Raises:
        ValueError: Some but not all of ``V1``, ``V2`` and ``b`` are given.

    .. admonition:: Example

        >>> e1 = np.array([[1., 2.]], np.float32)
        >>> e2 = np.array([[3., 4., 5.]], np.float32)
        >>> W = np.ones((2, 3, 1), np.float32)
        >>> F.bilinear(e1, e2, W).array
        array([[36.]], dtype=float32)
    """
    given = [v is not None for v in (V1, V2, b)]
    if any(given) and not all(given):
        missing = [name for name, g in zip(('V1', 'V2', 'b'), given) if not g]
        raise ValueError('bilinear: V1, V2 and b must be given together or not at all, '
                         f'got None for {", ".join(missing)} only')
    inputs = (e1, e2, W) + ((V1, V2, b) if all(given) else ())
    return BilinearFunction().apply(inputs)[0]
