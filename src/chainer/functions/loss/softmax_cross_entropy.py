"""Softmax cross entropy of logits and class labels (or class probabilities)."""
import math

import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer import variable
from chainer.functions.activation import softmax as _softmax
from chainer.functions.loss import _common
from chainer.utils import type_check

_FUNC = 'softmax_cross_entropy'


def _at_labels(t):
    """Index of the entries ``a[n, t[n, ...], ...]`` of an ``(N, C, ...)`` array
    seen through :func:`_rows` (``(N, C)``, or ``(N, C, R)`` past two axes)."""
    xp = backend.get_array_module(t)
    n = len(t)
    if t.ndim == 1:
        return xp.arange(n), t
    t = t.reshape(n, math.prod(t.shape[1:]))     # not -1: a size-0 batch leaves it open
    return xp.arange(n)[:, None], t, xp.arange(t.shape[1])[None, :]


def _rows(a, label_shaped=False):
    """``a`` (of the shape of ``x``, or of ``t`` if ``label_shaped``) as ``(N, C)`` or
    ``(N, C, R)`` (``(N,)`` or ``(N, R)``): the axes past the class axis merged."""
    keep = 1 if label_shaped else 2
    return a if a.ndim == keep else a.reshape(a.shape[:keep] + (math.prod(a.shape[keep:]),))


def _softmax_parts(x, xp):
    """``z = x - max(x)``, ``e = exp(z)`` and ``s = sum(e)`` along axis 1.

    The loss needs ``log softmax`` only at the labels (``z - log s`` there) and
    backward needs ``softmax = e / s``: one exponential serves both, where
    ``log_softmax`` followed by ``exp`` would take two.
    """
    if x.dtype == numpy.float16:
        x = x.astype(numpy.float32)      # exp and sums lose too much in half precision
    z = x - x.max(axis=1, keepdims=True)
    e = xp.exp(z)
    return z, e, e.sum(axis=1, keepdims=True)


class SoftmaxCrossEntropy(function_node.FunctionNode):
    """Cross entropy of ``softmax(x, axis=1)`` and integer labels."""

    _parts = None   # (exp(x - max), its sum) kept for backward when cache_score
    soft_target_loss = 'cross-entropy'   # Chainer's option; integer labels do not use it

    @property
    def y(self):
        """The softmax of the input when it is cached (``cache_score``), else ``None``."""
        if self._parts is None:
            return None
        e, sum_e = self._parts
        return (e / sum_e).astype(self.inputs[0].dtype, copy=False)

    def __init__(self, normalize=True, cache_score=True, class_weight=None,
                 ignore_label=-1, reduce='mean'):
        _common.check_reduce(_FUNC, reduce, ('mean', 'no'))
        self.normalize = normalize
        self.cache_score = cache_score
        self.class_weight = _class_weight(class_weight)
        self.ignore_label = ignore_label
        self.reduce = reduce

    def check_type_forward(self, in_types):
        if in_types.__class__ is type_check.LightTypeInfoTuple and len(in_types) == 2:
            x, t = in_types
            if (x.dtype.kind == 'f' and t.dtype.kind == 'i' and t.ndim == x.ndim - 1
                    and x.shape[0] == t.shape[0] and x.shape[2:] == t.shape[1:]):
                return      # the light check passed (a failure gets the full check's message)
        type_check._argname(in_types, ('x', 't'))
        x, t = in_types
        type_check.expect(
            x.dtype.kind == 'f', t.dtype.kind == 'i', t.ndim == x.ndim - 1,
            x.shape[0] == t.shape[0], x.shape[2:] == t.shape[1:])

    def forward(self, inputs):
        x, t = inputs
        xp = backend.get_array_module(x)
        n_class = x.shape[1]
        span = _common.check_labels(_FUNC, t, n_class, self.ignore_label)
        cw = self.class_weight
        if cw is not None and cw.shape != (n_class,):
            raise ValueError(f'{_FUNC}: class_weight must have shape ({n_class},) for x of '
                             f'shape {x.shape}, got {cw.shape}')
        self.retain_inputs((0,))
        z, e, sum_e = _softmax_parts(x, xp)
        if self.cache_score:
            self._parts = e, sum_e
        ignore = self.ignore_label
        # Per-position weight w: 0 where ignored, the class weight elsewhere; None when it
        # would be all ones (multiplying by it would change nothing).
        if ignore is None or (span is not None and not span[0] <= ignore <= span[1]):
            # No label is ignored (the checked labels' range says so without a search).
            mask = None
            self.t = t
            w = None if cw is None else xp.asarray(cw, x.dtype)[t]
        else:
            mask = t != ignore
            self.t = xp.where(mask, t, 0)
            w = mask.astype(x.dtype)
            if cw is not None:
                w *= xp.asarray(cw, x.dtype)[self.t]
        self.w = w
        n = len(x)
        if t.ndim == 1:     # (the usual labels: one per row, indexed without the helpers)
            picked = z[xp.arange(n), self.t]
        else:
            picked = _rows(z)[_at_labels(self.t)].reshape(t.shape)
        loss = xp.log(sum_e).reshape(t.shape) - picked
        if w is not None:
            loss = loss * w
        if self.reduce == 'mean':
            if not self.normalize:
                count = n
            else:
                count = t.size if mask is None else int(mask.sum())
            self.coeff = 1. / max(count, 1)
            loss = loss.sum() * self.coeff
        else:
            self.coeff = 1.
        return xp.asarray(loss, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gx = _SoftmaxCrossEntropyGrad(self).apply((x, grad_outputs[0]))[0]
        return tuple(gx if i == 0 else None for i in indexes)


class _SoftmaxCrossEntropyGrad(function_node.FunctionNode):
    """``(softmax(x) - onehot(t)) * w * coeff * gy`` from ``x`` and ``gy``."""

    def __init__(self, fwd):
        self.parts = fwd._parts
        self.t = fwd.t
        self.w = fwd.w
        self.coeff = fwd.coeff
        self.reduce = fwd.reduce

    def forward(self, inputs):
        x, gy = inputs
        xp = backend.get_array_module(x)
        self.retain_inputs((0, 1))
        e, sum_e = self.parts if self.parts is not None else _softmax_parts(x, xp)[1:]
        # The per-position factor w * coeff * gy, of the shape of t (or one number for all).
        a = (gy * self.coeff).astype(x.dtype, copy=False)
        if self.w is not None:
            a = self.w * a
        # softmax * a is e * (a / sum e): the division is on the small factor only.
        if a.ndim:
            a = _rows(a, True)
            gx = _rows(e) * (a[:, None] / _rows(sum_e))
        else:
            gx = _rows(e) * (a / _rows(sum_e))
        if x.ndim == 2:     # (the usual labels: one per row, indexed without the helper)
            gx[xp.arange(len(x)), self.t] -= a
        else:
            gx[_at_labels(self.t)] -= a
            gx = gx.reshape(x.shape)
        return gx if gx.dtype == x.dtype else gx.astype(x.dtype),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        y = F.softmax(x, axis=1)
        shape = (len(x), 1) + x.shape[2:]
        w = self.w
        if w is None:
            w = backend.get_array_module(self.t).ones(self.t.shape, x.dtype)
        scale = w * self.coeff
        ret = []
        if 0 in indexes:
            gyb = gy if self.reduce == 'no' else F.broadcast_to(gy, scale.shape)
            u = ggx * F.broadcast_to(F.reshape(gyb * scale, shape), x.shape)
            ret.append(_softmax._SoftmaxGrad(1).apply((y, u))[0])
        if 1 in indexes:
            onehot = backend.get_array_module(x).zeros(x.shape, x.dtype)
            _rows(onehot)[_at_labels(self.t)] = 1
            g = F.sum(ggx * (y - onehot), axis=1) * scale
            ret.append(g if self.reduce == 'no' else F.sum(g))
        return tuple(ret)


def _class_weight(cw):
    if cw is None:
        return None
    if isinstance(cw, variable.Variable):
        cw = cw.array
    if getattr(cw, 'dtype', None) is None or cw.dtype.kind != 'f':
        raise ValueError(f"{_FUNC}: the dtype of class_weight should be 'f', got "
                         f"{getattr(cw, 'dtype', type(cw).__name__)}")
    if cw.ndim != 1:
        raise ValueError(f'{_FUNC}: class_weight must be 1-dimensional, got shape {cw.shape}')
    return cw


def _soft_target_loss(x, t, reduce, soft_target_loss):
    """Cross entropy (or KL divergence) of ``softmax(x)`` from probabilities ``t``."""
    F = chainer.functions
    t = t.array if isinstance(t, variable.Variable) else t
    x_shape = x.shape
    if t.shape != x_shape:
        raise ValueError(f'{_FUNC}: soft targets t must have the shape of x {x_shape}, '
                         f'got {t.shape}')
    dtype = x.dtype
    xp = backend.get_array_module(t)
    t = xp.asarray(t, dtype)
    loss = -F.sum(F.log_softmax(x, axis=1) * t, axis=1)
    if soft_target_loss == 'kl-divergence':
        # 0 log 0 counts as 0.
        with numpy.errstate(divide='ignore', invalid='ignore'):
            entropy = xp.where(t > 0, t * xp.log(xp.where(t > 0, t, 1)), 0).sum(axis=1)
        loss = loss + entropy.astype(dtype)
    return F.mean(loss) if reduce == 'mean' else loss


def softmax_cross_entropy(x, t, normalize=True, cache_score=True, class_weight=None,
                          ignore_label=-1, reduce='mean', enable_double_backprop=False,
                          soft_target_loss='cross-entropy'):
    """Cross entropy of the softmax of logits and target classes.

    .. math:: l_n = -w_{t_n} \\log \\mathrm{softmax}(x_n)_{t_n}

    with the softmax taken along axis 1 and computed as ``log_softmax``, which
    stays finite for logits of any magnitude.

    Args:
        x (~chainer.Variable or N-dimensional array): Logits of shape
            ``(N, C)`` or ``(N, C, d1, ..., dk)`` (float).
        t (~chainer.Variable or N-dimensional array): Labels in ``[0, C)``
            (or ``ignore_label``) of shape ``(N,)`` or ``(N, d1, ..., dk)``
            (int). A float array of the shape of ``x`` is read as target
            probabilities instead (soft targets).
        normalize (bool): With ``reduce='mean'``, divide by the number of
            labels not ignored (``True``) or by ``N`` (``False``).
        cache_score (bool): Keep ``softmax(x)`` from forward for backward
            (faster, more memory).
        class_weight (N-dimensional array): Per-class weights :math:`w` of
            shape ``(C,)`` (float); ``None`` weighs every class 1.
        ignore_label (int): Label whose positions contribute nothing.
        reduce (str): ``'mean'`` or ``'no'`` (per position, 0 where ignored).
        enable_double_backprop (bool): Accepted for compatibility; the
            gradient is always differentiable.
        soft_target_loss (str): With soft targets, ``'cross-entropy'`` or
            ``'kl-divergence'``. Their ``'mean'`` averages over all positions.

    Returns:
        ~chainer.Variable: The loss, of the dtype of ``x``.

    Raises:
        ValueError: a label is neither in ``[0, C)`` nor ``ignore_label``
            (checked on CPU, and on GPU under ``chainer.config.debug``).

    .. admonition:: Example

        >>> x = np.array([[0., 1e4, -1e4]], 'f')
        >>> F.softmax_cross_entropy(x, np.array([2], 'i')).array
        array(20000., dtype=float32)
    """
    if soft_target_loss not in ('cross-entropy', 'kl-divergence'):
        raise ValueError(f"{_FUNC}: soft_target_loss must be 'cross-entropy' or "
                         f"'kl-divergence', got {soft_target_loss!r}")
    t_dtype = getattr(t, 'dtype', None)
    if t_dtype is not None and t_dtype.kind == 'f':
        _common.check_reduce(_FUNC, reduce, ('mean', 'no'))
        return _soft_target_loss(x, t, reduce, soft_target_loss)
    func = SoftmaxCrossEntropy(normalize, cache_score, class_weight, ignore_label, reduce)
    if soft_target_loss != func.soft_target_loss:
        func.soft_target_loss = soft_target_loss
    return func.apply((x, t))[0]
