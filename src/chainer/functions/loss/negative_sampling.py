"""Negative sampling loss (word2vec's skip-gram objective)."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.functions.loss import _common
from chainer.utils import argument
from chainer.utils import type_check

_FUNC = 'negative_sampling'


def _softplus(a, xp):
    return xp.maximum(a, 0) + xp.log1p(xp.exp(-xp.abs(a)))


class NegativeSamplingFunction(function_node.FunctionNode):
    """Negative sampling loss of ``x`` against the rows of ``W`` named by ``t``
    and by samples the sampler draws."""

    ignore_label = -1
    samples = None

    def __init__(self, sampler, sample_size, reduce='sum'):
        _common.check_reduce(_FUNC, reduce, ('sum', 'no'))
        self.sampler = sampler
        self.sample_size = sample_size
        self.reduce = reduce

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't', 'W'))
        x, t, w = in_types
        _checks.expect_kind_of(t, numpy.int32)
        type_check.expect(
            x.dtype.kind == 'f', w.dtype == x.dtype, t.dtype.kind == 'i',
            x.ndim == 2, t.ndim == 1, w.ndim == 2,
            x.shape[0] == t.shape[0], x.shape[1] == w.shape[1])

    def forward(self, inputs):
        x, t, W = inputs
        xp = backend.get_array_module(x)
        _common.check_labels(_FUNC, t, len(W), self.ignore_label)
        self.retain_inputs((0, 2))
        self.mask = t != self.ignore_label
        # The sampler draws sample_size + 1 per example; the label takes the first column.
        shape = (len(x), self.sample_size + 1)
        drawn = xp.asarray(self.sampler(shape))
        if drawn.shape != shape or drawn.dtype.kind not in 'iu':
            raise ValueError(f'{_FUNC}: the sampler must return integers of shape {shape}, '
                             f'got {drawn.dtype} {drawn.shape}')
        self.samples = drawn.astype(numpy.int32)
        self.samples[:, 0] = t
        # The positive example (column 0) counts with the opposite sign.
        self.signs = xp.ones(self.samples.shape, x.dtype)
        self.signs[:, 0] = -1
        f = xp.einsum('bsd,bd->bs', W[self.samples], x) * self.signs
        loss = _softplus(f, xp).sum(axis=1) * self.mask
        if self.reduce == 'sum':
            loss = loss.sum()
        return xp.asarray(loss, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gx, gW = NegativeSamplingFunctionGrad(self).apply((x, W, grad_outputs[0]))
        return tuple({0: gx, 2: gW}.get(i) for i in indexes)


def _broadcast_gy(gy, reduce, shape):
    """The output gradient spread over the ``(B, S+1)`` samples (a Variable or an array)."""
    F = chainer.functions
    if isinstance(gy, chainer.Variable):
        return F.broadcast_to(gy if reduce == 'sum' else F.expand_dims(gy, 1), shape)
    xp = backend.get_array_module(gy)
    return xp.broadcast_to(gy if reduce == 'sum' else gy[:, None], shape)


class NegativeSamplingFunctionGrad(function_node.FunctionNode):
    """Gradients of :class:`NegativeSamplingFunction` for ``x`` and ``W`` from ``gy``.

    With ``w = W[samples]``, ``f = sign * (w . x)`` and the coefficient
    ``g = sigmoid(f) * sign * mask * gy`` of each sample,
    ``gx = sum_s g w`` and ``gW[j] = sum of g x over the samples naming row j``.
    """

    def __init__(self, fwd):
        self.samples = fwd.samples
        self.signs = fwd.signs
        self.reduce = fwd.reduce
        self.weight = fwd.signs * fwd.mask[:, None].astype(fwd.signs.dtype)   # sign * mask

    def forward(self, inputs):
        x, W, gy = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1, 2))
        w = W[self.samples]
        f = xp.einsum('bsd,bd->bs', w, x) * self.signs
        g = xp.tanh(f * 0.5) * 0.5 + 0.5        # sigmoid, free of overflow
        g *= self.weight
        g *= _broadcast_gy(gy, self.reduce, g.shape)
        gx = xp.einsum('bs,bsd->bd', g, w)
        gW = xp.zeros_like(W)
        contrib = g[:, :, None] * x[:, None, :]
        # A row drawn several times gathers every contribution.
        if xp is numpy:
            numpy.add.at(gW, self.samples, contrib)
        else:
            import cupyx
            cupyx.scatter_add(gW, self.samples, contrib)
        return gx.astype(x.dtype, copy=False), gW

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        x, W, gy = self.get_retained_inputs()
        ggx, ggW = grad_outputs
        xp = backend.get_array_module(x)
        shape = self.samples.shape + (x.shape[1],)
        w = F.get_item(W, self.samples)
        xb = F.broadcast_to(F.expand_dims(x, 1), shape)
        s = F.sigmoid(F.sum(w * xb, axis=2) * self.signs)
        # The scalar paired with (ggx, ggW) is sum_bs g_bs h_bs, with
        # h = ggx . w + ggW[samples] . x.
        h = 0
        if ggx is not None:
            ggxb = F.broadcast_to(F.expand_dims(ggx, 1), shape)
            h = h + F.sum(ggxb * w, axis=2)
        if ggW is not None:
            ggw = F.get_item(ggW, self.samples)
            h = h + F.sum(ggw * xb, axis=2)
        if isinstance(h, int):
            return (None,) * len(indexes)
        gyb = _broadcast_gy(gy, self.reduce, s.shape)
        g = s * self.weight * gyb
        dg = s * (1 - s) * self.weight * gyb * h * self.signs   # d(g h)/d(w . x)
        dgb = F.broadcast_to(F.expand_dims(dg, 2), shape)
        gb = F.broadcast_to(F.expand_dims(g, 2), shape)
        ret = []
        for i in indexes:
            if i == 0:
                term = dgb * w
                if ggW is not None:
                    term = term + gb * ggw
                ret.append(F.sum(term, axis=1))
            elif i == 1:
                term = dgb * xb
                if ggx is not None:
                    term = term + gb * ggxb
                ret.append(F.scatter_add(xp.zeros(W.shape, W.dtype), self.samples, term))
            else:
                gg = s * self.weight * h
                ret.append(F.sum(gg) if self.reduce == 'sum' else F.sum(gg, axis=1))
        return tuple(ret)


def negative_sampling(x, t, W, sampler, sample_size, reduce='sum', **kwargs):
    """Negative sampling loss.

    For each example :math:`x_i` with label :math:`t_i` and drawn samples
    :math:`s_{i1}, \\dots, s_{iK}`,

    .. math::
        l_i = \\log(1 + e^{-w_{t_i}^\\top x_i})
        + \\sum_k \\log(1 + e^{w_{s_{ik}}^\\top x_i})

    where :math:`w_j` is row ``j`` of ``W``. Examples labelled -1 are ignored.

    Args:
        x (~chainer.Variable or N-dimensional array): Inputs of shape
            ``(B, D)`` (float).
        t (~chainer.Variable or N-dimensional array): Labels in
            ``[0, V)`` or -1, of shape ``(B,)`` (int).
        W (~chainer.Variable or N-dimensional array): Output embeddings of
            shape ``(V, D)``, of the dtype of ``x``.
        sampler (callable): Called with a shape ``(B, sample_size + 1)``,
            returns an integer array of that shape (on the device of ``x``),
            e.g. :meth:`chainer.utils.WalkerAlias.sample`; its first column
            is replaced by ``t`` and the rest are the negative samples.
        sample_size (int): Number of negative samples per example.
        reduce (str): ``'sum'`` or ``'no'`` (per example).
        return_samples (bool): Also return the ``(B, sample_size + 1)`` int32
            array of rows used, the label first.

    Returns:
        ~chainer.Variable or tuple: The loss, of the dtype of ``x``, and the
        samples if ``return_samples``.

    .. admonition:: Example

        >>> x = np.zeros((2, 3), 'f'); W = np.zeros((4, 3), 'f')
        >>> F.negative_sampling(x, np.array([0, 1], 'i'), W,
        ...                     lambda s: np.zeros(s, 'i'), 2).array
        array(4.158883, dtype=float32)
    """
    return_samples, = argument.parse_kwargs(kwargs, ('return_samples', False))
    func = NegativeSamplingFunction(sampler, sample_size, reduce)
    loss, = func.apply((x, t, W))
    return (loss, func.samples) if return_samples else loss
