"""Explicit references of the ROI functions: one ROI, bin and sample at a time."""
import math

import numpy


def _bins(start, end, out, size, plus_one):
    start, end = int(round(start)), int(round(end))   # half to even, as NumPy rounds
    length = max(end - start + plus_one, 1)
    step = length / out
    for p in range(out):
        lo = min(max(math.floor(p * step) + start, 0), size)
        hi = min(max(math.ceil((p + 1) * step) + start, 0), size)
        yield p, lo, hi


def roi_pool(x, rois, batch, outsize, scale, plus_one, reduce, empty):
    """rois: (R, 4) rows (y_min, x_min, y_max, x_max)."""
    n, c, h, w = x.shape
    ph, pw = outsize
    y = numpy.zeros((len(rois), c, ph, pw), x.dtype)
    for r, roi in enumerate(rois):
        y0, x0, y1, x1 = (roi * roi.dtype.type(scale)).tolist()
        for i, hs, he in _bins(y0, y1, ph, h, plus_one):
            for j, ws, we in _bins(x0, x1, pw, w, plus_one):
                if he <= hs or we <= ws:
                    y[r, :, i, j] = empty
                else:
                    y[r, :, i, j] = reduce(x[batch[r], :, hs:he, ws:we], axis=(1, 2))
    return y


def _sample(img, yy, xx):
    # Bilinear value at (yy, xx) of img (c, h, w); None more than a pixel outside.
    c, h, w = img.shape
    if yy < -1 or yy > h or xx < -1 or xx > w:
        return None
    yy, xx = max(yy, 0.), max(xx, 0.)
    y0, x0 = int(yy), int(xx)
    if y0 >= h - 1:
        y0 = y1 = h - 1
        yy = float(y0)
    else:
        y1 = y0 + 1
    if x0 >= w - 1:
        x0 = x1 = w - 1
        xx = float(x0)
    else:
        x1 = x0 + 1
    ly, lx = yy - y0, xx - x0
    return ((1 - ly) * (1 - lx) * img[:, y0, x0] + (1 - ly) * lx * img[:, y0, x1]
            + ly * (1 - lx) * img[:, y1, x0] + ly * lx * img[:, y1, x1])


def roi_align(x, rois, batch, outsize, scale, ratio, mode):
    n, c, h, w = x.shape
    ph, pw = outsize
    y = numpy.zeros((len(rois), c, ph, pw), numpy.float64)
    for r, roi in enumerate(rois):
        # Edges scaled in the ROIs' dtype, as the grid size (a ceil) is sensitive to it.
        y0, x0, y1, x1 = (roi * roi.dtype.type(scale)).tolist()
        bh, bw = max(y1 - y0, 1.) / ph, max(x1 - x0, 1.) / pw
        gh = ratio[0] or math.ceil(bh)
        gw = ratio[1] or math.ceil(bw)
        img = x[batch[r]].astype(numpy.float64)
        for i in range(ph):
            for j in range(pw):
                values = []
                for a in range(gh):
                    for b in range(gw):
                        v = _sample(img, y0 + i * bh + (a + .5) * bh / gh,
                                    x0 + j * bw + (b + .5) * bw / gw)
                        values.append(v)
                if mode == 'average':
                    y[r, :, i, j] = sum(numpy.zeros(c) if v is None else v
                                        for v in values) / (gh * gw)
                else:
                    found = [v for v in values if v is not None]
                    y[r, :, i, j] = numpy.max(found, axis=0) if found else -numpy.inf
    return y.astype(x.dtype)
