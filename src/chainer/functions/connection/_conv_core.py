"""What the convolution and deconvolution nodes of both families (2-D and N-D) share.

Array code, written once against ``xp``: a convolution is im2col (a strided view of the padded
input, copied once) and GEMMs, ``y = W @ col``: one per sample when a sample has enough outputs
for BLAS to run well (the output is then C-contiguous ``(n, c, ...)``, as Chainer's), else one
per group over the channel-major matrix ``(c * k..., n * out...)``. The two gradients run one
GEMM per kernel tap on channels-last arrays, whose rows are whole pixels: the gradient in W,
``gy @ x[tap]``, copies only one tap's pixels at a time, and a deconvolution (the convolution's
adjoint in x) adds each ``x^T @ W[tap]`` straight into its output, so neither holds an im2col
matrix (col2im's short strided adds cost as much as its GEMM).

Nodes: :class:`Convolution`, :class:`ConvolutionGradW` and :class:`Deconvolution` hold the
checks, forward and backward. The public classes (``Convolution2DFunction``,
``ConvolutionND``...) add Chainer's constructors and attributes and name the nodes of their own
family that compute each gradient; each gradient is a convolution or deconvolution of the others,
so double backprop needs no extra code.
"""
import itertools
import math

import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.utils import argument
from chainer.utils import conv
from chainer.utils import conv_nd
from chainer.utils import type_check


# ---- arguments -------------------------------------------------------------------------------
def int_tuple(func, name, value, ndim, minimum, length_error=AssertionError):
    """``value`` (an int or one int per spatial axis) as a tuple of ``ndim`` ints >= minimum."""
    try:
        values = conv_nd.as_tuple(value, ndim)
    except AssertionError:
        raise length_error(f'{func}: {name} must be an int or {ndim} ints (one per spatial '
                           f'axis), got {value!r}') from None
    except TypeError:
        values = (value,)
    for v in values:
        if not isinstance(v, (int, numpy.integer)):
            raise TypeError(f'{func}: {name} must be an int or {ndim} ints (one per spatial '
                            f'axis), got {value!r}')
        if v < minimum:
            raise ValueError(f'{func}: {name} should be >= {minimum} on every axis, '
                             f'got {value!r}')
    return values


def set_spec(node, ndim, stride, pad, dilate, groups, length_error=AssertionError):
    """Sets a node's ndim, stride, pad, dilate (tuples) and groups, checking their values."""
    func = node._func
    node.ndim = ndim
    node.stride = int_tuple(func, 'stride', stride, ndim, 1, length_error)
    node.pad = int_tuple(func, 'pad', pad, ndim, 0, length_error)
    node.dilate = int_tuple(func, 'dilate', dilate, ndim, 1, length_error)
    if groups < 1:
        raise ValueError(f'{func}: groups should be a positive int, got {groups!r}')
    node.groups = int(groups)


def axis_attribute(name, axis):
    """A read-only attribute giving one axis of a per-axis tuple (Chainer's ``sy``, ``ph``...)."""
    def get(self):
        values = getattr(self, name)
        return None if values is None else values[axis]
    return property(get)


def conv_outsizes(func, dims, ksize, stride, pad, cover_all, dilate, error=AssertionError):
    """Output sizes of a convolution, which must be positive."""
    outs = tuple(conv.get_conv_outsize(d, k, s, p, cover_all, di)
                 for d, k, s, p, di in zip(dims, ksize, stride, pad, dilate))
    if min(outs, default=1) <= 0:
        raise error(
            f'{func}: output sizes should be positive, got {outs}: the kernel {tuple(ksize)} '
            f'(dilation {dilate}) is larger than the input {tuple(dims)} padded by {pad} '
            f'(stride {stride}, cover_all={cover_all})')
    return outs


def deconv_outsizes(func, dims, ksize, stride, pad, dilate, error=AssertionError):
    """Output sizes of a deconvolution given no ``outsize``, which must be positive."""
    outs = tuple(conv.get_deconv_outsize(d, k, s, p, d=di)
                 for d, k, s, p, di in zip(dims, ksize, stride, pad, dilate))
    if min(outs, default=1) <= 0:
        raise error(
            f'{func}: output sizes should be positive, got {outs} for the input {tuple(dims)}, '
            f'kernel {tuple(ksize)}, stride {stride}, pad {pad} and dilation {dilate}: '
            f'the padding removes more than the deconvolution produces')
    return outs


# ---- array code ----------------------------------------------------------------------------
def _compute_dtype(*dtypes):
    # float16 is computed in float32: NumPy has no float16 GEMM, and long float16 sums of
    # products lose too much.
    return numpy.promote_types(numpy.result_type(*dtypes), numpy.float32)


def _channel_major(a, groups):
    """``(n, c, d...)`` as the matrices ``(groups, c / groups, n * d...)`` (free when ``a`` is
    already laid out channel first in memory, as this module's outputs are)."""
    n, c = a.shape[:2]
    return a.swapaxes(0, 1).reshape(groups, c // groups, n * math.prod(a.shape[2:]))


def _batch_major(m, n, dims):
    """The inverse of :func:`_channel_major`: a ``(n, c, d...)`` view of the matrices."""
    return m.reshape((m.shape[0] * m.shape[1], n) + tuple(dims)).swapaxes(0, 1)


# Below this many output positions per sample, one GEMM per sample is too small for BLAS to
# run at full speed, and one GEMM over the whole batch (channel first) is used instead.
_PER_SAMPLE_MIN = 64


def convolve(x, W, b, stride, pad, outs, dilate, groups):
    """``y = conv(x, W) + b`` with the given output sizes; ``y`` has x's dtype."""
    xp = backend.get_array_module(x)
    dtype = _compute_dtype(x.dtype, W.dtype)
    out_c = W.shape[0]
    n, c = x.shape[:2]
    rows = c // groups * math.prod(W.shape[2:])
    # (sizes spelled out rather than -1: a filter bank may be empty)
    w = W.astype(dtype, copy=False).reshape(groups, out_c // groups, rows)
    if math.prod(outs) >= _PER_SAMPLE_MIN:
        # One GEMM per sample: y comes out C-contiguous (n, out_c, ...), the layout that
        # the following elementwise ops, pooling and their gradients run fastest on.
        col = conv_nd._im2col_nd(x, W.shape[2:], stride, pad, 0, False, dilate, outs, dtype)
        y = xp.matmul(w, col.reshape(n, groups, rows, math.prod(outs)))
        if b is not None:
            y += b.reshape(groups, out_c // groups, 1)
        return y.reshape((n, out_c) + tuple(outs)).astype(x.dtype, copy=False)
    col = conv_nd._im2col_nd(x, W.shape[2:], stride, pad, 0, False, dilate, outs, dtype,
                             channel_major=True)
    y = xp.matmul(w, col.reshape(groups, rows, n * math.prod(outs)))
    if b is not None:
        y += b.reshape(groups, out_c // groups, 1)
    return _batch_major(y, n, outs).astype(x.dtype, copy=False)


def _tap_grid(dims, ksize, stride, pad, dilate, outs):
    """Where a convolution of an image of sizes ``dims`` to ``outs`` reads, in its padded
    image: the padded sizes, the image's slices in it, and for each kernel tap (in W's order)
    the slices that tap reads for all outputs."""
    full, inner, taps = [], [], []
    for d, k, s, p, di, o in zip(dims, ksize, stride, pad, dilate, outs):
        # (cover_all and fixed output sizes may reach past the usual padding)
        full.append(max(p + d, (k - 1) * di + (o - 1) * s + 1))
        inner.append(slice(p, p + d))
        taps.append([slice(t * di, t * di + (o - 1) * s + 1, s) for t in range(k)])
    return tuple(full), tuple(inner), itertools.product(*taps)


def weight_gradient(x, gy, ksize, stride, pad, dilate, groups, w_dtype):
    """Gradient in W of ``conv(x, W)`` for the output gradient ``gy``.

    One GEMM per kernel tap, ``gy @ x[tap]``, where ``x[tap]`` (the pixels that tap sees,
    ``(n * out..., c)``) is copied from a channels-last padded copy of x: each copy moves whole
    pixels, and only one tap's rows are held at a time instead of the whole im2col matrix.
    """
    xp = backend.get_array_module(x)
    dtype = _compute_dtype(x.dtype, gy.dtype)
    n, c = x.shape[:2]
    dims, outs = x.shape[2:], gy.shape[2:]
    nd = len(dims)
    out_c, cg = gy.shape[1], c // groups
    full, inner, taps = _tap_grid(dims, ksize, stride, pad, dilate, outs)
    every = (slice(None),)
    padded = xp.zeros((n,) + full + (c,), dtype=dtype)
    padded[every + inner] = xp.moveaxis(x, 1, -1)
    g = _channel_major(gy.astype(dtype, copy=False), groups)     # (groups, out_c / g, n * P)
    rows = xp.empty((n,) + tuple(outs) + (c,), dtype=dtype)
    # (n * P, c) seen as (groups, n * P, c / groups)
    rows_g = rows.reshape(-1, groups, cg).swapaxes(0, 1)
    gW = xp.empty((math.prod(ksize), groups, out_c // groups, cg), dtype=dtype)
    for i, target in enumerate(taps):
        rows[...] = padded[every + target]
        xp.matmul(g, rows_g, out=gW[i])
    gW = gW.reshape(ksize + (out_c, cg)).transpose((nd, nd + 1) + tuple(range(nd)))
    return xp.ascontiguousarray(gW, dtype=w_dtype)


def transposed_convolve(x, W, b, stride, pad, outs, dilate, groups):
    """Deconvolution ``y = conv^T(x, W) + b`` onto the sizes ``outs``; ``y`` has x's dtype.

    ``W`` is laid out ``(in_c, out_c // groups, k...)``, like the W of the convolution whose
    adjoint this is. One GEMM per kernel tap, ``x^T @ W[..., tap]``, added straight into a
    channels-last padded image: its rows are whole pixels, so each tap's add runs over long
    contiguous stretches of both arrays and no ``(out_c * k..., n * d...)`` column matrix is
    ever held (col2im's short strided adds cost as much as the GEMM).
    """
    xp = backend.get_array_module(x)
    dtype = _compute_dtype(x.dtype, W.dtype)
    n, in_c = x.shape[:2]
    dims, ksize = x.shape[2:], W.shape[2:]
    nd = len(dims)
    out_cg = W.shape[1]
    # (groups, n * d..., in_c / groups) as a transposed view of channel-major memory.
    rows = _channel_major(x.astype(dtype, copy=False), groups).swapaxes(1, 2)
    # (k..., groups, in_c / groups, out_c / groups): one small contiguous matrix per tap.
    w = W.astype(dtype, copy=False).reshape((groups, in_c // groups, out_cg) + ksize)
    w = xp.ascontiguousarray(w.transpose(tuple(range(3, 3 + nd)) + (0, 1, 2)))
    # The output is the image of the convolution whose output has x's sizes.
    full, crop, taps = _tap_grid(outs, ksize, stride, pad, dilate, dims)
    img = xp.zeros((n,) + full + (groups, out_cg), dtype=dtype)
    every = (slice(None),)
    for tap, target in zip(itertools.product(*map(range, ksize)), taps):
        part = xp.matmul(rows, w[tap]).reshape((groups, n) + dims + (out_cg,))
        img[every + target] += xp.moveaxis(part, 0, -2)
    y = img[every + crop].reshape((n,) + tuple(outs) + (groups * out_cg,))
    y = y.transpose((0, nd + 1) + tuple(range(1, nd + 1)))
    if b is not None:
        y += b.reshape((groups * out_cg,) + (1,) * nd)
    return y.astype(x.dtype, copy=False)


# ---- nodes ---------------------------------------------------------------------------------
def _bias_gradient(node, gy):
    F = chainer.functions
    gb = F.sum(gy, axis=(0,) + tuple(range(2, gy.ndim)))
    b_dtype = node.inputs[2].dtype
    return gb if gb.dtype == b_dtype else F.cast(gb, b_dtype)


def _check_common(in_types, ndim):
    """Checks shared by both directions; returns the x and W types."""
    n_in = in_types.size()
    type_check.expect(2 <= n_in, n_in <= 3)
    # (unnamed: Chainer's messages say in_types[i] for this function)
    x_type, w_type = in_types[:2]
    type_check.expect(
        x_type.dtype.kind == 'f',
        w_type.dtype.kind == 'f',
        x_type.ndim == ndim + 2,
        w_type.ndim == ndim + 2,
    )
    return x_type, w_type


def _check_groups(node, what, size):
    if node.groups == 1:
        return
    size = type_check.eval(size)
    if size % node.groups:
        raise node._groups_error(
            f'{node._func}: the number of groups must be a divisor of that of {what} '
            f'channels, got groups={node.groups} and {size} {what} channels')


def _check_bias(node, b_type, x_type, out_channels):
    type_check.expect(
        b_type.dtype == x_type.dtype if node._bias_same_dtype else b_type.dtype.kind == 'f',
        b_type.ndim == 1,
        b_type.shape[0] == out_channels,
    )


class _Spec(function_node.FunctionNode):
    # Set by the public subclasses: ndim, stride, pad, dilate (tuples of ndim ints), groups.
    _func = None                  # the public function, for messages
    _groups_error = TypeError     # what Chainer raised when groups do not divide channels
    _size_error = AssertionError  # ... and when an output size is not positive
    _bias_same_dtype = False      # whether b must have x's dtype (2-D) or any float (N-D)


class Convolution(_Spec):
    """Base of Convolution2DFunction and ConvolutionND: ``y = conv(x, W) + b``."""

    cover_all = False
    _outs = None    # output sizes fixed by the creator (the gradient nodes); else computed

    def check_type_forward(self, in_types):
        x_type, w_type = _check_common(in_types, self.ndim)
        type_check.expect(x_type.shape[1] == w_type.shape[1] * self.groups)
        _check_groups(self, 'output', w_type.shape[0])
        if len(in_types) == 3:
            _check_bias(self, in_types[2], x_type, w_type.shape[0])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        outs = self._outs or conv_outsizes(
            self._func, x.shape[2:], W.shape[2:], self.stride, self.pad, self.cover_all,
            self.dilate, self._size_error)
        return convolve(x, W, b, self.stride, self.pad, outs, self.dilate, self.groups),

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(self._deconvolution(x.shape[2:]).apply((gy, W))[0])
        if 1 in indexes:
            ret.append(self._grad_w(W.shape, W.dtype).apply((x, gy))[0])
        if 2 in indexes:
            ret.append(_bias_gradient(self, gy))
        return ret


class ConvolutionGradW(_Spec):
    """Base of the nodes computing ``gW`` from ``(x, gy)`` for a convolution's spec."""

    cover_all = False

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        return weight_gradient(x, gy, self.W_shape[2:], self.stride, self.pad, self.dilate,
                               self.groups, self.W_dtype),

    def backward(self, indexes, grad_outputs):
        # gW is linear in x and in gy: its adjoints are the deconvolution and the
        # convolution by ggW.
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(self._deconvolution(x.shape[2:]).apply((gy, ggW))[0])
        if 1 in indexes:
            ret.append(self._convolution(gy.shape[2:]).apply((x, ggW))[0])
        return ret


class Deconvolution(_Spec):
    """Base of Deconvolution2DFunction and DeconvolutionND: ``y = conv^T(x, W) + b``."""

    outs = None         # output sizes: given, or computed by forward
    cover_all = False   # whether the matching convolution needs cover_all (set by forward)

    def check_type_forward(self, in_types):
        x_type, w_type = _check_common(in_types, self.ndim)
        type_check.expect(x_type.shape[1] == w_type.shape[0])
        _check_groups(self, 'input', x_type.shape[1])
        if self.outs is not None:
            # x must be what a convolution of the output gives, with or without cover_all.
            for i, (out, s, p, d) in enumerate(zip(self.outs, self.stride, self.pad,
                                                   self.dilate)):
                k = w_type.shape[i + 2]
                span = k + (k - 1) * (d - 1)
                type_check.expect(
                    (out + 2 * p - span) // s + 1 <= x_type.shape[i + 2],
                    x_type.shape[i + 2] <= (out + 2 * p - span + s - 1) // s + 1,
                )
        if len(in_types) == 3:
            _check_bias(self, in_types[2], x_type, w_type.shape[1] * self.groups)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        dims, ksize = x.shape[2:], W.shape[2:]
        if self.outs is None:
            self.outs = deconv_outsizes(self._func, dims, ksize, self.stride, self.pad,
                                        self.dilate, self._size_error)
        self.cover_all = any(
            conv.get_conv_outsize(o, k, s, p, False, di) != d
            for o, d, k, s, p, di in zip(self.outs, dims, ksize, self.stride, self.pad,
                                         self.dilate))
        return transposed_convolve(x, W, b, self.stride, self.pad, self.outs, self.dilate,
                                   self.groups),

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(self._convolution(x.shape[2:]).apply((gy, W))[0])
        if 1 in indexes:
            # As a convolution, the deconvolution's output is the input and x the output.
            ret.append(self._grad_w(W.shape, W.dtype).apply((gy, x))[0])
        if 2 in indexes:
            ret.append(_bias_gradient(self, gy))
        return ret


def with_outs(node, outs):
    """Fixes the output sizes of a new convolution node (for the gradient nodes, whose sizes
    come from the arrays they invert); returns the node."""
    node._outs = tuple(outs)
    return node


# ---- the 2-D family ------------------------------------------------------------------------
_DETERMINISTIC = (
    "deterministic argument is not supported anymore. Use chainer.using_config("
    "'cudnn_deterministic', value) context where value is either `True` or `False`.")


def parse_kwargs_2d(func, kwargs):
    """``(dilate, groups)`` from the keyword options of the 2-D (de)convolution ``func``."""
    dilate = kwargs.pop('dilate', 1)
    groups = kwargs.pop('groups', 1)
    if kwargs:
        argument.check_unexpected_kwargs(kwargs, deterministic=_DETERMINISTIC)
        names = ', '.join(repr(name) for name in sorted(kwargs))
        raise TypeError(f'{func}() got unexpected keyword argument(s) {names}')
    return dilate, groups


class Spec2D:
    """Mixin of the 2-D nodes: Chainer's per-axis attribute names (``sy``, ``ph``...) and
    error types."""

    ndim = 2
    sy = axis_attribute('stride', 0)
    sx = axis_attribute('stride', 1)
    ph = axis_attribute('pad', 0)
    pw = axis_attribute('pad', 1)
    dy = axis_attribute('dilate', 0)
    dx = axis_attribute('dilate', 1)
    _groups_error = ValueError
    _bias_same_dtype = True
