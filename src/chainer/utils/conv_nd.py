"""N-dimensional im2col/col2im for convolution and pooling over ``ndim`` spatial axes.

``im2col_nd`` turns a batch ``(n, c, d_1, ..., d_N)`` into the patch array
``(n, c, k_1, ..., k_N, out_1, ..., out_N)`` whose entry at kernel tap ``k``
and output position ``o`` is the input element under that tap;
``col2im_nd`` is its adjoint (it sums patches back into the batch). Both are
written once against ``xp`` (NumPy or CuPy): a strided view plus one copy for
``im2col_nd``, one slice-add per kernel tap for ``col2im_nd``. The 2-D
functions of :mod:`chainer.utils.conv` are this code with ``N = 2``.
"""
import importlib
import itertools
import sys

import numpy
import numpy.lib.stride_tricks

from chainer.utils._conv_sizes import get_conv_outsize  # NOQA  (also offered here, as in Chainer)


def as_tuple(x, n):
    """Returns ``x`` as a tuple of ``n`` ints: a scalar is repeated ``n`` times.

    Args:
        x (int or sequence of ints): A size given for all axes or per axis.
        n (int): Number of axes.

    Returns:
        tuple of ints: ``x`` per axis.
    """
    if type(x) is tuple and len(x) == n:
        return x
    if isinstance(x, (int, numpy.integer)):
        return (x,) * n
    x = tuple(x)
    if len(x) != n:
        # AssertionError, as in Chainer.
        raise AssertionError(f'expected {n} values (one per spatial axis), got {x}')
    return x


def _as_strided(xp):
    if xp is numpy:
        return numpy.lib.stride_tricks.as_strided
    return importlib.import_module(f'{xp.__name__}.lib.stride_tricks').as_strided


def _array_module(x):
    # CuPy arrays can only exist once cupy has been imported, so looking it up
    # in sys.modules tells the two apart without importing CuPy ourselves.
    if type(x) is numpy.ndarray:
        return numpy
    cupy = sys.modules.get('cupy')
    if cupy is not None and isinstance(x, cupy.ndarray):
        return cupy
    return numpy


def _im2col_nd(img, ksize, stride, pad, pval, cover_all, dilate, outs=None, dtype=None,
               channel_major=False):
    # outs: the output sizes, when the caller fixes them (2-D im2col's out_h/out_w).
    # dtype: the dtype of the result (the convolutions compute float16 in float32, and
    # casting here saves them a pass over the input).
    # channel_major: lay the result out as (c, k..., n, out...), the one matrix
    # (c * k..., n * out...) that a convolution multiplies in a single GEMM.
    xp = _array_module(img)
    shape = img.shape
    dims = shape[2:]
    ndim = len(dims)
    ksize = as_tuple(ksize, ndim)
    stride = as_tuple(stride, ndim)
    pad = as_tuple(pad, ndim)
    dilate = as_tuple(dilate, ndim)
    if outs is None:
        outs = (None,) * ndim
    # One pass over the axes: output size, the padded extent the windows
    # reach (cover_all or fixed output sizes may reach past the usual
    # padding), where the input sits in it, and the view's strides.
    out_sizes, full, inner, tap_strides, out_strides = [], [], [], [], []
    padded_any = False
    for d, k, s, p, di, o in zip(dims, ksize, stride, pad, dilate, outs):
        if o is None:
            o = get_conv_outsize(d, k, s, p, cover_all, di)
        out_sizes.append(o)
        reach = max((k - 1) * di + (o - 1) * s + 1, p + d)
        padded_any = padded_any or p or reach > d
        full.append(reach)
        inner.append(slice(p, p + d))
    outs = tuple(out_sizes)
    if min(outs, default=1) <= 0:
        raise ValueError(
            f'im2col requires positive output sizes, got {outs} for input size {dims}, '
            f'kernel {ksize}, stride {stride}, pad {pad}, dilation {dilate}')
    if dtype is None:
        dtype = img.dtype
    if padded_any:
        if channel_major:   # (c, n, ...) in memory, read in the order the result is written
            padded = xp.full((shape[1], shape[0]) + tuple(full), pval, dtype=dtype)
            padded = padded.swapaxes(0, 1)
        else:
            padded = xp.full(shape[:2] + tuple(full), pval, dtype=dtype)
        padded[(slice(None), slice(None)) + tuple(inner)] = img
    else:
        padded = img
    strides = padded.strides
    for st, s, di in zip(strides[2:], stride, dilate):
        tap_strides.append(st * di)
        out_strides.append(st * s)
    windows = _as_strided(xp)(
        padded, shape[:2] + ksize + outs, strides[:2] + tuple(tap_strides) + tuple(out_strides))
    if channel_major:
        windows = windows.transpose(
            (1,) + tuple(range(2, 2 + ndim)) + (0,) + tuple(range(2 + ndim, 2 + 2 * ndim)))
    # A new array, never a view: a 1x1 window view may already be contiguous, and
    # the result must never alias the input.
    return windows.astype(dtype, order='C', copy=True)


def _col2im_nd(col, stride, pad, dims, dilate):
    xp = _array_module(col)
    shape = col.shape
    ndim = (len(shape) - 2) // 2
    ksize = shape[2:2 + ndim]
    outs = shape[2 + ndim:]
    stride = as_tuple(stride, ndim)
    pad = as_tuple(pad, ndim)
    dilate = as_tuple(dilate, ndim)
    dims = as_tuple(dims, ndim)
    every = [slice(None)]
    # Per axis: the padded extent, where the result sits in it, and for each
    # kernel tap the slice of positions that tap adds to.
    full, crop, tap_slices = [], every * 2, []
    for d, k, s, p, di, o in zip(dims, ksize, stride, pad, dilate, outs):
        full.append(max(p + d, (k - 1) * di + (o - 1) * s + 1))
        crop.append(slice(p, p + d))
        tap_slices.append([slice(t * di, t * di + s * o, s) for t in range(k)])
    if col.strides[0] >= col.strides[1]:
        img = xp.zeros(shape[:2] + tuple(full), dtype=col.dtype)
    else:
        # A channel-major col (a transposed view): sum into a channel-major image, so
        # that each tap's add walks both arrays in memory order.
        img = xp.zeros((shape[1], shape[0]) + tuple(full), dtype=col.dtype).swapaxes(0, 1)
    taps = itertools.product(every, every, *map(range, ksize))
    targets = itertools.product(every, every, *tap_slices)
    for tap, target in zip(taps, targets):
        img[target] += col[tap]
    return img[tuple(crop)]


def im2col_nd_cpu(img, ksize, stride, pad, pval=0, cover_all=False, dilate=1):
    """Extracts N-dimensional convolution patches from a batch.

    Args:
        img (array): Input of shape ``(n, c, d_1, ..., d_N)``.
        ksize (int or tuple of ints): Kernel size per spatial axis.
        stride (int or tuple of ints): Strides.
        pad (int or tuple of ints): Padding on each side.
        pval: Value used for padding.
        cover_all (bool): See :func:`~chainer.utils.conv.get_conv_outsize`.
        dilate (int or tuple of ints): Dilations.

    Returns:
        array: A new C-contiguous array of shape
        ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``.
    """
    return _im2col_nd(img, ksize, stride, pad, pval, cover_all, dilate)


def im2col_nd_gpu(img, ksize, stride, pad, cover_all=False, dilate=1):
    """GPU version of :func:`im2col_nd_cpu` (padding with zeros)."""
    return _im2col_nd(img, ksize, stride, pad, 0, cover_all, dilate)


def im2col_nd(img, ksize, stride, pad, cover_all=False, dilate=1):
    """:func:`im2col_nd_cpu` or :func:`im2col_nd_gpu`, as ``img`` lives (zero padding)."""
    return _im2col_nd(img, ksize, stride, pad, 0, cover_all, dilate)


def col2im_nd_cpu(col, stride, pad, dims, dilate=1):
    """Sums N-dimensional convolution patches back into a batch (adjoint of im2col).

    Args:
        col (array): Patches of shape ``(n, c, k_1, ..., k_N, out_1, ..., out_N)``.
        stride (int or tuple of ints): Strides.
        pad (int or tuple of ints): Padding on each side.
        dims (tuple of ints): Spatial size ``(d_1, ..., d_N)`` of the batch.
        dilate (int or tuple of ints): Dilations.

    Returns:
        array: The batch, of shape ``(n, c, d_1, ..., d_N)``.
    """
    return _col2im_nd(col, stride, pad, dims, dilate)


def col2im_nd_gpu(col, stride, pad, dims, dilate=1):
    """GPU version of :func:`col2im_nd_cpu`."""
    return _col2im_nd(col, stride, pad, dims, dilate)


def col2im_nd(col, stride, pad, dims, dilate=1):
    """:func:`col2im_nd_cpu` or :func:`col2im_nd_gpu`, as ``col`` lives."""
    return _col2im_nd(col, stride, pad, dims, dilate)
