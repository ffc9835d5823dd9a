"""Shared pieces of the ROI pooling functions: argument checks, bins and bilinear samples.

ROI coordinates are few, so bin boundaries and sample positions are computed on
the host with NumPy; the feature maps stay on their device (``xp``). The
per-ROI work is vectorised over channels and bins; ROIs are looped over only
where bins of different sizes make a batched form cost more than it saves.
"""
import numbers

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


def check_batch_indices(func, batch, n, name='roi_indices'):
    """``IndexError`` naming the function when an ROI points past the batch."""
    if batch.size and (batch.min() < 0 or batch.max() >= n):
        bad = batch[(batch < 0) | (batch >= n)]
        raise IndexError(f'{func}: ROI batch indices ({name}) must lie in [0, {n}) for x with '
                         f'{n} images, got {sorted(set(bad.tolist()))[:5]}')


def check_finite(func, rois, inf_ok=False):
    """The errors of Chainer 7.8.1, which turns ROI coordinates into ints on the host: ValueError
    for NaN, OverflowError for infinity (``rois``: a host array). ``inf_ok``: the align
    functions, which sample at the coordinates and take infinity, as in Chainer."""
    if inf_ok:
        if not numpy.isnan(rois).any():
            return
    elif numpy.isfinite(rois).all():
        return
    r = int(numpy.argwhere(~numpy.isfinite(rois))[0][0])
    if numpy.isnan(rois).any():
        raise ValueError(f'cannot convert float NaN to integer ({func}: rois must be finite, '
                         f'got NaN in ROI {r})')
    raise OverflowError(f'cannot convert float infinity to integer ({func}: rois must be '
                        f'finite, got infinity in ROI {r})')


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
    """Max of ``x[batch[r], :, hs:he, ws:we]`` per ROI and bin, and its flat index ``h * W + w``.

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
    """``a[indices] += values`` with repeated indices adding up (``a`` C-contiguous)."""
    if xp is numpy:
        # bincount over flat positions is many times faster than numpy.add.at.
        flat = 0
        for index, size in zip(indices, a.shape):
            flat = flat * size + index
        flat, values = numpy.broadcast_arrays(flat, values)
        a += numpy.bincount(flat.ravel(), values.ravel().astype(numpy.float64),
                            a.size).reshape(a.shape).astype(a.dtype, copy=False)
    else:
        import cupyx
        cupyx.scatter_add(a, indices, values)


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


def per_image(batch, xp):
    """``(image, ROI positions on xp)`` for each image some ROI points at."""
    for b in numpy.unique(batch):
        yield int(b), xp.asarray(numpy.flatnonzero(batch == b))


def separable_pool(x, batch, ay, ax):
    """``y[r, c] = ay[r] @ x[batch[r], c] @ ax[r].T`` for all ROIs, one product per image.

    ``ay`` (R, outh, h) and ``ax`` (R, outw, w) weigh the rows and columns each
    bin reads: pooling that is an average over a rectangle of (interpolated)
    pixels is separable this way.
    """
    xp = backend.get_array_module(x)
    dtype = x.dtype
    if dtype == numpy.float16:      # products of float16 lose digits quickly
        x, ay, ax = (a.astype(numpy.float32) for a in (x, ay, ax))
    y = xp.empty((len(batch), x.shape[1], ay.shape[1], ax.shape[1]), dtype=x.dtype)
    for b, rs in per_image(batch, xp):
        t = xp.tensordot(ay[rs], x[b], axes=(2, 1))                 # (Rb, outh, c, w)
        y[rs] = xp.matmul(t.transpose(0, 2, 1, 3), ax[rs].transpose(0, 2, 1)[:, None])
    return y.astype(dtype, copy=False)


def separable_pool_grad(gy, batch, ay, ax, x_shape):
    """The adjoint of :func:`separable_pool`."""
    xp = backend.get_array_module(gy)
    dtype = gy.dtype
    if dtype == numpy.float16:
        gy, ay, ax = (a.astype(numpy.float32) for a in (gy, ay, ax))
    gx = xp.zeros(x_shape, dtype=gy.dtype)
    for b, rs in per_image(batch, xp):
        u = xp.matmul(gy[rs], ax[rs][:, None])                       # (Rb, c, outh, w)
        gx[b] += xp.tensordot(ay[rs], u, axes=([0, 1], [0, 2])).transpose(1, 0, 2)
    return gx.astype(dtype, copy=False)


def box_rows(lo, hi, size, dtype):
    """``(R, out, size)`` rows averaging ``[lo, hi)`` of each bin (zero rows for empty bins)."""
    at = numpy.arange(size)
    inside = (at >= lo[..., None]) & (at < hi[..., None])
    return (inside / numpy.maximum(hi - lo, 1)[..., None]).astype(dtype)


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
    """Adds each ``g[r, c, i, j]``, bilinearly split, around the point
    ``(cy, cx)[r, c, i, j]`` of ``x[batch[r], c]``."""
    xp = backend.get_array_module(g)
    gx = xp.zeros(x_shape, dtype=g.dtype)
    b, ch = _batch_channel(xp, batch, g.shape)
    low_y, high_y, wl_y, wh_y = bilinear(cy, x_shape[2])
    low_x, high_x, wl_x, wh_x = bilinear(cx, x_shape[3])
    # The four neighbours stacked on a leading axis: one scatter instead of four.
    rows = xp.stack([low_y, low_y, high_y, high_y])
    cols = xp.stack([low_x, high_x, low_x, high_x])
    weights = xp.stack([wl_y * wl_x, wl_y * wh_x, wh_y * wl_x, wh_y * wh_x])
    scatter_add(xp, gx, (b[None], ch[None], rows, cols), (g * weights).astype(g.dtype))
    return gx

def check_types(in_types, float32_only=False):
    """The input contract of the ``(x, rois, roi_indices)`` ROI functions."""
    # (unnamed: Chainer's messages say in_types[i] for this function)
    type_check.expect(in_types.size() == 3)
    x_type, roi_type, index_type = in_types
    if float32_only:    # (checked first, as in Chainer)
        type_check.expect(x_type.dtype == numpy.float32, roi_type.dtype == numpy.float32)
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


def prepare(func, name, x, rois, roi_indices):
    """Host copies of ``rois`` (scaled by ``func.spatial_scale``) and the checked batch indices."""
    batch = to_host(roi_indices).astype(numpy.int64)
    check_batch_indices(name, batch, x.shape[0])
    rois = to_host(rois)
    check_finite(name, rois, inf_ok='align' in name)
    return rois * rois.dtype.type(func.spatial_scale), batch


def yx_int_bins(func, edges, h, w):
    """Integer bins of ``(y_min, x_min, y_max, x_max)`` ROI edges (end pixel excluded)."""
    hs, he = int_bins(edges[:, 0], edges[:, 2], func.outh, h, 0)
    ws, we = int_bins(edges[:, 1], edges[:, 3], func.outw, w, 0)
    return hs, he, ws, we
