"""Shared pieces of the ROI pooling functions: argument checks, bins and bilinear samples.

ROI coordinates are few, so bin boundaries and sample positions are computed on
the host with NumPy; the feature maps stay on their device (``xp``). The
per-ROI work is vectorised over channels and bins; ROIs are looped over only
where bins of different sizes make a batched form cost more than it saves.
"""
import numbers
import sys

import numpy

from chainer import backend
from chainer.functions import _checks
from chainer.utils import type_check


def to_host(a):
    return a if isinstance(a, numpy.ndarray) else a.get()


def outsize_pair(func, outsize):
    """``outsize`` as a pair of positive ints (``TypeError`` otherwise, as in Chainer)."""
    pair = tuple(outsize) if hasattr(outsize, '__getitem__') else (outsize, outsize)
    if len(pair) != 2:
        raise ValueError(f'{func}: outsize must be an int or a pair of ints, got {outsize!r}')
    for i, v in enumerate(pair):
        if not _checks.is_int(v) or v <= 0:
            raise TypeError(f'{func}: outsize[{i}] must be a positive integer, '
                            f'got {type(v).__name__} {v!r}')
    return int(pair[0]), int(pair[1])


def scale_arg(func, spatial_scale):
    """``spatial_scale`` as a positive float (``TypeError`` otherwise, as in Chainer)."""
    if isinstance(spatial_scale, (bool, numpy.bool_)) or \
            not isinstance(spatial_scale, numbers.Real) or not spatial_scale > 0:
        raise TypeError(f'{func}: spatial_scale must be a positive float number, '
                        f'got {type(spatial_scale).__name__} {spatial_scale!r}')
    return float(spatial_scale)


def sampling_ratio_pair(func, sampling_ratio):
    """``sampling_ratio`` as a pair of (None or int >= 1) (``TypeError`` otherwise)."""
    pair = (tuple(sampling_ratio) if hasattr(sampling_ratio, '__getitem__')
            else (sampling_ratio, sampling_ratio))
    if len(pair) != 2 or not all(v is None or (_checks.is_int(v) and v >= 1) for v in pair):
        raise TypeError(f'{func}: sampling_ratio must be None, an integer >= 1 or a pair of '
                        f'them, got {sampling_ratio!r}')
    return tuple(None if v is None else int(v) for v in pair)


def check_batch_indices(func, batch, n):
    """``IndexError`` naming the function when an ROI points past the batch."""
    if batch.size and (batch.min() < 0 or batch.max() >= n):
        bad = batch[(batch < 0) | (batch >= n)]
        raise IndexError(f'{func}: ROI batch indices must lie in [0, {n}) for x with '
                         f'{n} images, got {sorted(set(bad.tolist()))[:5]}')


def int_bins(start, end, out, size, plus_one):
    """Integer bins ``[lo, hi)`` along one axis, per ROI: the rounded ROI split into ``out``.

    ``start`` and ``end`` are the scaled ROI edges (``(R,)`` floats). Bins are
    clipped to ``[0, size]``; an empty bin has ``hi <= lo``.
    """
    start = numpy.round(start).astype(numpy.int64)
    end = numpy.round(end).astype(numpy.int64)
    length = numpy.maximum(end - start + plus_one, 1)
    step = length[:, None] / out
    p = numpy.arange(out)
    lo = numpy.floor(p * step).astype(numpy.int64) + start[:, None]
    hi = numpy.ceil((p + 1) * step).astype(numpy.int64) + start[:, None]
    return numpy.clip(lo, 0, size), numpy.clip(hi, 0, size)


def bin_max(x, batch, hs, he, ws, we):
    """Max of ``x[batch[r], :, hs:he, ws:we]`` per ROI and bin, with its flat index in ``h * W + w``.

    Empty bins give ``-inf`` and index ``-1``. Rectangles make the max
    separable: rows first (within the ROI's rows), then columns.
    """
    xp = backend.get_array_module(x)
    n, c, h, w = x.shape
    n_rois, ph = hs.shape
    pw = ws.shape[1]
    y = xp.full((n_rois, c, ph, pw), -numpy.inf, dtype=x.dtype)
    index = xp.full((n_rois, c, ph, pw), -1, dtype=numpy.int64)
    for r in range(n_rois):
        h0, h1 = int(hs[r].min()), int(he[r].max())
        w0, w1 = int(ws[r].min()), int(we[r].max())
        if h1 <= h0 or w1 <= w0:
            continue
        region = x[int(batch[r]), :, h0:h1, w0:w1]
        rows = numpy.arange(h0, h1)
        in_row = xp.asarray((rows >= hs[r][:, None]) & (rows < he[r][:, None]))     # (ph, h)
        cols = numpy.arange(w0, w1)
        in_col = xp.asarray((cols >= ws[r][:, None]) & (cols < we[r][:, None]))     # (pw, w)
        t = xp.where(in_row[None, :, :, None], region[:, None], -numpy.inf)          # c ph h w
        arg_row = t.argmax(axis=2)                                                   # c ph w
        row_max = xp.take_along_axis(t, arg_row[:, :, None], 2)[:, :, 0]
        t = xp.where(in_col[None, None], row_max[:, :, None, :], -numpy.inf)         # c ph pw w
        arg_col = t.argmax(axis=3)                                                   # c ph pw
        y[r] = xp.take_along_axis(t, arg_col[..., None], 3)[..., 0]
        row = xp.take_along_axis(arg_row, arg_col, 2)
        index[r] = (row + h0) * w + arg_col + w0
    empty = xp.asarray((he <= hs)[:, :, None] | (we <= ws)[:, None, :])             # R ph pw
    index[xp.broadcast_to(empty[:, None], index.shape)] = -1
    return y, index


def scatter_add(xp, a, indices, values):
    """``a[indices] += values`` with repeated indices adding up."""
    if xp is numpy:
        numpy.add.at(a, indices, values)
    else:
        sys.modules['cupyx'].scatter_add(a, indices, values)


def _batch_channel(xp, batch, shape):
    # Index arrays that broadcast against an (R, C, ...) array of per-ROI values.
    extra = (1,) * (len(shape) - 2)
    b = xp.asarray(batch).reshape((-1, 1) + extra)
    c = xp.arange(shape[1]).reshape((1, -1) + extra)
    return b, c


def scatter_by_index(g, index, batch, x_shape):
    """Adds ``g[r, c, i, j]`` to ``x[batch[r], c]`` at flat position ``index[r, c, i, j]``."""
    xp = backend.get_array_module(g)
    n, c, h, w = x_shape
    gx = xp.zeros((n, c, h * w), dtype=g.dtype)
    valid = index >= 0
    b, ch = _batch_channel(xp, batch, g.shape)
    scatter_add(xp, gx, (b, ch, xp.where(valid, index, 0)), xp.where(valid, g, 0))
    return gx.reshape(x_shape)


def gather_by_index(x, index, batch):
    """``y[r, c, i, j]`` = ``x[batch[r], c]`` at flat position ``index[r, c, i, j]`` (0 if -1)."""
    xp = backend.get_array_module(x)
    n, c, h, w = x.shape
    valid = index >= 0
    b, ch = _batch_channel(xp, batch, index.shape)
    y = x.reshape(n, c, h * w)[b, ch, xp.where(valid, index, 0)]
    return xp.where(valid, y, 0).astype(x.dtype, copy=False)


def bin_sum(x, batch, hs, he, ws, we):
    """Sum of ``x[batch[r], :, hs:he, ws:we]`` per ROI and bin, through an integral image."""
    xp = backend.get_array_module(x)
    n, c, h, w = x.shape
    integral = xp.zeros((n, c, h + 1, w + 1), dtype=numpy.float64)
    integral[:, :, 1:, 1:] = x.astype(numpy.float64).cumsum(2).cumsum(3)
    b = xp.asarray(batch)[:, None, None]
    hs, he, ws, we = (xp.asarray(a) for a in (hs, he, ws, we))
    lo_h, hi_h = hs[:, :, None], he[:, :, None]
    lo_w, hi_w = ws[:, None, :], we[:, None, :]
    # Advanced indices around a slice put the indexed axes first: (R, ph, pw, c).
    s = (integral[b, :, hi_h, hi_w] - integral[b, :, lo_h, hi_w]
         - integral[b, :, hi_h, lo_w] + integral[b, :, lo_h, lo_w])
    return s.transpose(0, 3, 1, 2)


def bin_sum_grad(g, batch, hs, he, ws, we, x_shape):
    """The adjoint of :func:`bin_sum`: each bin's gradient added over the whole bin."""
    xp = backend.get_array_module(g)
    n, c, h, w = x_shape
    corners = xp.zeros((n, c, h + 1, w + 1), dtype=numpy.float64)
    g = g.astype(numpy.float64).transpose(0, 2, 3, 1)      # (R, ph, pw, c)
    b = xp.asarray(batch)[:, None, None]
    hs, he, ws, we = (xp.asarray(a) for a in (hs, he, ws, we))
    ch = xp.arange(c)
    for rows, cols, sign in ((he, we, 1), (hs, we, -1), (he, ws, -1), (hs, ws, 1)):
        idx = (b[..., None], ch, rows[:, :, None, None], cols[:, None, :, None])
        scatter_add(xp, corners, idx, g if sign > 0 else -g)
    # Integral image entry (i, j) sums x[:i, :j], so x[h, w] collects every corner below-right.
    gx = corners[:, :, 1:, 1:][:, :, ::-1, ::-1].cumsum(2).cumsum(3)[:, :, ::-1, ::-1]
    return xp.ascontiguousarray(gx)


def sample_points(start, end, out, ratio):
    """Bilinear sample coordinates along one axis for each ROI: ``(R, out, g)`` and ``g``.

    Each bin is split into ``g`` equal parts (``ratio``, or as many as the bin
    is long, rounded up, when ``ratio`` is None) sampled at their centres;
    ROIs with fewer samples than the largest ``g`` get ``nan`` in the rest.
    """
    length = numpy.maximum(end - start, 1.)
    step = length / out
    grid = (numpy.full(len(start), ratio, numpy.int64) if ratio is not None
            else numpy.ceil(step).astype(numpy.int64))
    g = int(grid.max()) if len(grid) else 1
    p = numpy.arange(out)[None, :, None]
    i = numpy.arange(g)[None, None, :]
    coord = (start[:, None, None] + p * step[:, None, None]
             + (i + .5) * (step / grid)[:, None, None])
    return numpy.where(i < grid[:, None, None], coord, numpy.nan), grid


def bilinear(coord, size):
    """Per coordinate: the two neighbours along an axis of length ``size`` and their weights.

    Coordinates outside ``[-1, size]`` (and ``nan``) get zero weights; those in
    ``[-1, 0)`` read the first element, those past ``size - 1`` the last.
    """
    xp = backend.get_array_module(coord)
    valid = (coord >= -1) & (coord <= size)
    c = xp.where(valid, xp.maximum(coord, 0), 0)
    low = xp.floor(c).astype(numpy.int64)
    last = low >= size - 1
    low = xp.where(last, size - 1, low)
    high = xp.where(last, size - 1, low + 1)
    frac = xp.where(last, 0, c - low)
    return low, high, (1 - frac) * valid, frac * valid


def interp_rows(coord, size):
    """Rows of the interpolation matrix: ``(..., size)`` weights of each coordinate."""
    low, high, w_low, w_high = bilinear(coord, size)
    at = numpy.arange(size)
    return (w_low[..., None] * (low[..., None] == at)
            + w_high[..., None] * (high[..., None] == at))


def scatter_bilinear(g, cy, cx, batch, x_shape):
    """Adds ``g[r, c, i, j]``, bilinearly split, around ``(cy, cx)[r, c, i, j]`` of ``x[batch[r], c]``."""
    xp = backend.get_array_module(g)
    gx = xp.zeros(x_shape, dtype=g.dtype)
    b, ch = _batch_channel(xp, batch, g.shape)
    low_y, high_y, wl_y, wh_y = bilinear(cy, x_shape[2])
    low_x, high_x, wl_x, wh_x = bilinear(cx, x_shape[3])
    for rows, wy in ((low_y, wl_y), (high_y, wh_y)):
        for cols, wx in ((low_x, wl_x), (high_x, wh_x)):
            scatter_add(xp, gx, (b, ch, rows, cols), (g * (wy * wx)).astype(g.dtype))
    return gx

def check_types(in_types, float32_only=False):
    """The input contract of the ``(x, rois, roi_indices)`` ROI functions."""
    type_check._argname(in_types, ('x', 'rois', 'roi_indices'))
    x_type, roi_type, index_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        x_type.ndim == 4,
        x_type.dtype == roi_type.dtype,
        roi_type.ndim == 2,
        roi_type.shape[1] == 4,
        index_type.dtype == numpy.int32,
        index_type.ndim == 1,
        roi_type.shape[0] == index_type.shape[0],
    )
    if float32_only:
        type_check.expect(x_type.dtype == numpy.float32)


def prepare(func, name, x, rois, roi_indices):
    """Host copies of ``rois`` (scaled by ``func.spatial_scale``) and the checked batch indices."""
    batch = to_host(roi_indices).astype(numpy.int64)
    check_batch_indices(name, batch, x.shape[0])
    rois = to_host(rois)
    return rois * rois.dtype.type(func.spatial_scale), batch


def yx_int_bins(func, edges, h, w):
    """Integer bins of ``(y_min, x_min, y_max, x_max)`` ROI edges (end pixel excluded)."""
    hs, he = int_bins(edges[:, 0], edges[:, 2], func.outh, h, 0)
    ws, we = int_bins(edges[:, 1], edges[:, 3], func.outw, w, 0)
    return hs, he, ws, we
