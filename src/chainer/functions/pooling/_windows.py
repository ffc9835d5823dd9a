"""Window arithmetic shared by the pooling functions, written once against ``xp``.

A pooling window is visited one kernel tap at a time: tap ``t`` of every
window is a plain strided slice of the padded input, so a reduction over the
window is ``prod(ksize)`` vectorised passes over the output, with no copy of
the patches (the im2col copy costs more than the reduction itself; see
``benchmarks/bench_pooling.py``). Loops run over kernel taps, never over pixels.
"""
import itertools

import numpy

from chainer import backend
from chainer.utils import conv
from chainer.utils import conv_nd


def out_sizes(func, dims, ksize, stride, pad, cover_all):
    """Output size per axis; ``AssertionError`` (as in Chainer) when one is not positive."""
    outs = tuple(conv.get_conv_outsize(d, k, s, p, cover_all)
                 for d, k, s, p in zip(dims, ksize, stride, pad))
    if min(outs, default=1) <= 0:
        raise AssertionError(
            f'{func}: output sizes should be positive, got {outs} for input size {dims} '
            f'with ksize {ksize}, stride {stride}, pad {pad}, cover_all {cover_all} '
            f'(the kernel is larger than the padded input)')
    return outs


def _extent(dims, ksize, stride, pad, outs):
    # The padded extent the windows reach: cover_all or a given output size may
    # reach past the usual padding on the far side.
    return tuple(max(p + d, (o - 1) * s + k)
                 for d, k, s, p, o in zip(dims, ksize, stride, pad, outs))


def padded(x, ksize, stride, pad, outs, pval):
    """``x`` inside a border of ``pval`` wide enough for every window."""
    dims = x.shape[2:]
    full = _extent(dims, ksize, stride, pad, outs)
    if full == dims and not any(pad):
        return x
    xp = backend.get_array_module(x)
    out = xp.full(x.shape[:2] + full, pval, dtype=x.dtype)
    out[(Ellipsis,) + tuple(slice(p, p + d) for p, d in zip(pad, dims))] = x
    return out


def crop(x, pad, dims):
    """The inverse of :func:`padded`: the part of ``x`` that is the input."""
    return x[(Ellipsis,) + tuple(slice(p, p + d) for p, d in zip(pad, dims))]


def taps(ksize, stride, outs):
    """Per kernel tap (in C order), the slices of the padded input that tap sees."""
    per_axis = [[slice(t, t + s * (o - 1) + 1, s) for t in range(k)]
                for k, s, o in zip(ksize, stride, outs)]
    return [(Ellipsis,) + sl for sl in itertools.product(*per_axis)]


def window_sum(x, ksize, stride, pad, outs):
    """Sum over each window of ``x`` (zero padding)."""
    xpad = padded(x, ksize, stride, pad, outs, 0)
    slices = taps(ksize, stride, outs)
    y = xpad[slices[0]].copy()
    for sl in slices[1:]:
        y += xpad[sl]
    return y


def window_max(x, ksize, stride, pad, outs):
    """Max over each window (padding never wins), and the padded input (for
    :func:`window_argmax`)."""
    xp = backend.get_array_module(x)
    xpad = padded(x, ksize, stride, pad, outs, -numpy.inf)
    slices = taps(ksize, stride, outs)
    y = xpad[slices[0]].copy()
    for sl in slices[1:]:
        xp.maximum(y, xpad[sl], out=y)
    return y, xpad


def window_argmax(xpad, y, ksize, stride):
    """Index, within its window, of the element of ``xpad`` equal to each window's max ``y``.

    Ties go to the first tap in C order, as ``argmax`` would.
    """
    xp = backend.get_array_module(xpad)
    slices = taps(ksize, stride, y.shape[2:])
    last = len(slices) - 1
    # The taps are counted in the smallest signed type that holds them, and the index moves
    # by arithmetic: masked writes (copyto's where=, where()) branch on random masks and cost
    # several times as much as the comparisons.
    code = numpy.min_scalar_type(-len(slices))
    index = xp.full(y.shape, last, dtype=code)
    hit = xp.empty(y.shape, dtype=bool)
    move = xp.empty(y.shape, dtype=code)
    # Walking the taps backwards leaves the first matching tap in ``index``.
    for t in range(last - 1, -1, -1):
        xp.equal(xpad[slices[t]], y, out=hit)
        xp.subtract(code.type(t), index, out=move)
        move *= hit
        index += move
    return index.astype(numpy.int64)


def scatter(g, index, ksize, stride, pad, dims):
    """Puts ``g[..., o]`` at tap ``index[..., o]`` of window ``o`` of an input of size ``dims``.

    Overlapping windows add up. This is the adjoint of :func:`gather`.
    """
    xp = backend.get_array_module(g)
    outs = g.shape[2:]
    full = _extent(dims, ksize, stride, pad, outs)
    hit = xp.empty(g.shape, dtype=bool)
    if any(s < k for s, k in zip(stride, ksize)):
        out = xp.zeros(g.shape[:2] + full, dtype=g.dtype)
        picked = xp.empty_like(g)
        for t, sl in enumerate(taps(ksize, stride, outs)):
            xp.equal(index, t, out=hit)
            xp.multiply(g, hit, out=picked)
            out[sl] += picked
        return crop(out, pad, dims)
    # Windows that do not overlap write each element at most once, straight into place;
    # when they tile the padded input exactly, nothing is left to zero first.
    tiled = all(s == k and e == o * k for s, k, e, o in zip(stride, ksize, full, outs))
    out = (xp.empty if tiled else xp.zeros)(g.shape[:2] + full, dtype=g.dtype)
    for t, sl in enumerate(taps(ksize, stride, outs)):
        xp.equal(index, t, out=hit)
        xp.multiply(g, hit, out=out[sl])
    return crop(out, pad, dims)


def gather(x, index, ksize, stride, pad, outs):
    """``y[..., o]`` = the element of ``x`` at tap ``index[..., o]`` of window ``o``."""
    xp = backend.get_array_module(x)
    xpad = padded(x, ksize, stride, pad, outs, 0)
    y = xp.zeros(x.shape[:2] + tuple(outs), dtype=x.dtype)
    hit = xp.empty(y.shape, dtype=bool)
    for t, sl in enumerate(taps(ksize, stride, outs)):
        xp.equal(index, t, out=hit)
        xp.copyto(y, xpad[sl], where=hit)
    return y


def spread(g, ksize, stride, pad, dims):
    """Adds ``g[..., o]`` to every element of window ``o`` (adjoint of :func:`window_sum`)."""
    xp = backend.get_array_module(g)
    nd = len(dims)
    col = xp.broadcast_to(g[(slice(None),) * 2 + (None,) * nd], g.shape[:2] + ksize + g.shape[2:])
    return conv_nd.col2im_nd(col, stride, pad, dims)
