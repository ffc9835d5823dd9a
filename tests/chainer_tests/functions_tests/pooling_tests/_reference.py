"""Obviously-correct pooling references for small sizes: one explicit window at a time."""
import itertools

import numpy


def distinct(shape, dtype, low=-1, high=1):
    """Values spread evenly over ``[low, high]`` in random order: no two are close,
    so a max never ties and numerical gradients stay off its kinks."""
    size = int(numpy.prod(shape))
    steps = numpy.random.permutation(size) + numpy.random.uniform(0.3, 0.7, size)
    return (low + (high - low) * steps / max(size, 1)).astype(dtype).reshape(shape)


def outsize(d, k, s, p, cover_all):
    if cover_all:
        return (d + 2 * p - k + s - 1) // s + 1
    return (d + 2 * p - k) // s + 1


def windows(dims, ksize, stride, pad, cover_all):
    """(output position, slices of the input inside that window), for every window."""
    outs = [outsize(d, k, s, p, cover_all) for d, k, s, p in zip(dims, ksize, stride, pad)]
    for pos in itertools.product(*map(range, outs)):
        starts = [o * s - p for o, s, p in zip(pos, stride, pad)]
        yield pos, tuple(slice(max(a, 0), min(a + k, d))
                         for a, k, d in zip(starts, ksize, dims))


def pool(x, ksize, stride, pad, cover_all, reduce):
    """``reduce(window, axes)`` of every window of ``x`` (batch and channel kept)."""
    dims = x.shape[2:]
    nd = len(dims)
    outs = [outsize(d, k, s, p, cover_all) for d, k, s, p in zip(dims, ksize, stride, pad)]
    y = numpy.zeros(x.shape[:2] + tuple(outs), x.dtype)
    axes = tuple(range(2, 2 + nd))
    for pos, sl in windows(dims, ksize, stride, pad, cover_all):
        y[(Ellipsis,) + pos] = reduce(x[(Ellipsis,) + sl], axes)
    return y


def window_argmax(x, ksize, stride, pad, cover_all):
    """Index of each window's maximum within the padded, C-ordered window."""
    dims = x.shape[2:]
    outs = [outsize(d, k, s, p, cover_all) for d, k, s, p in zip(dims, ksize, stride, pad)]
    idx = numpy.zeros(x.shape[:2] + tuple(outs), numpy.int64)
    for pos in itertools.product(*map(range, outs)):
        starts = [o * s - p for o, s, p in zip(pos, stride, pad)]
        best = numpy.full(x.shape[:2], -numpy.inf)
        for t, tap in enumerate(itertools.product(*map(range, ksize))):
            at = [a + j for a, j in zip(starts, tap)]
            if all(0 <= a < d for a, d in zip(at, dims)):
                v = x[(Ellipsis,) + tuple(at)]
                better = v > best
                idx[(Ellipsis,) + pos][better] = t
                best = numpy.where(better, v, best)
    return idx


def deconv_outsize(d, k, s, p, cover_all):
    if cover_all:
        return s * (d - 1) + k - s + 1 - 2 * p
    return s * (d - 1) + k - 2 * p


def unpool(x, ksize, stride, pad, outs):
    """Adds every element of ``x`` to each output position of its window."""
    y = numpy.zeros(x.shape[:2] + tuple(outs), x.dtype)
    for pos in itertools.product(*map(range, x.shape[2:])):
        starts = [o * s - p for o, s, p in zip(pos, stride, pad)]
        sl = tuple(slice(max(a, 0), max(min(a + k, d), 0))
                   for a, k, d in zip(starts, ksize, outs))
        y[(Ellipsis,) + sl] += x[(Ellipsis,) + pos][(Ellipsis,) + (None,) * len(outs)]
    return y
