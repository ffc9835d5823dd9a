"""Small array helpers shared by functions, written for NumPy and CuPy alike."""
import math
import sys

import numpy


def _array_module(x):
    # A CuPy array implies cupy is already imported; never import it here.
    cupy = sys.modules.get('cupy')
    if cupy is not None and isinstance(x, cupy.ndarray):
        return cupy
    return numpy


def as_vec(x):
    """Returns ``x`` flattened to one dimension (``x`` itself if already 1-D)."""
    if x.ndim == 1:
        return x
    return x.ravel()


def as_mat(x):
    """Returns ``x`` reshaped to ``(len(x), -1)`` (``x`` itself if already 2-D)."""
    if x.ndim == 2:
        return x
    return x.reshape(len(x), -1)


def size_of_shape(shape):
    """Returns the number of elements of an array of ``shape`` (1 for ``()``).

    Args:
        shape (sequence of ints): The shape.

    Returns:
        int: The product of the dimensions, as a Python int.
    """
    return int(math.prod(shape))


def empty_like(x):
    """Returns an uninitialized array like ``x`` on the same device."""
    return _array_module(x).empty_like(x)


def sum_to(x, shape):
    """Sums an array down to ``shape``, undoing broadcasting.

    This is the gradient of broadcasting ``shape`` to ``x.shape``: leading
    axes are summed away and axes where ``shape`` has 1 are summed with
    ``keepdims``.

    Args:
        x (array): NumPy or CuPy array.
        shape (tuple of ints): Target shape; it must broadcast to
            ``x.shape``.

    Returns:
        array: ``x`` itself if it already has ``shape``, otherwise a new array
        of that shape.
    """
    xshape = x.shape
    if xshape == shape:
        return x
    shape = tuple(shape)
    if xshape == shape:
        return x
    lead = len(xshape) - len(shape)
    if lead < 0:
        raise ValueError(f'sum_to requires len(shape) <= x.ndim, got {shape=} and {xshape=}')
    axes = list(range(lead))
    for i, n in enumerate(shape, lead):
        if n != xshape[i]:
            if n != 1:
                raise ValueError(
                    f'sum_to requires shape to broadcast to x.shape, got {shape=} and {xshape=}')
            axes.append(i)
    if type(x) is numpy.ndarray:
        return _numpy_sum_keepdims(x, axes).reshape(shape)
    _reject_variable(x)
    return x.sum(axis=tuple(axes), keepdims=True).reshape(shape)


def _numpy_sum_keepdims(x, axes):
    # NumPy adds whole rows at once (vectorised) when it reduces outer axes,
    # but a multi-axis sum that mixes outer and inner axes runs its inner loop
    # once per short row, and NumPy does not reorder the work itself. Summing
    # the leading run of axes first, as its own call, is up to 10x faster on
    # bias-style gradients such as (N, C, H, W) -> (C, 1, 1) with large N*H*W.
    # The size thresholds below were measured: small arrays are faster in one
    # call. float16 additions are emulated and round at every step, so those
    # accumulate in float32.
    half = x.dtype.char == 'e'
    dtype = numpy.float32 if half else None
    if len(axes) > 1 and x.size >= 65536:
        k = 1
        while k < len(axes) and axes[k] == k:
            k += 1
        if k == len(axes):
            k = 1  # a full reduction: rows first, then the rest
            split = x.shape[0] >= 8 and math.prod(x.shape[1:]) >= 1024
        else:
            split = axes[0] == 0 and math.prod(x.shape[k:]) >= 16
        if split:
            x = x.sum(axis=tuple(axes[:k]), keepdims=True, dtype=dtype)
            axes = axes[k:]
    y = x.sum(axis=tuple(axes), keepdims=True, dtype=dtype)
    return y.astype(numpy.float16) if half else y


def _reject_variable(x):
    variable = sys.modules.get('chainer.variable')
    if variable is not None and isinstance(x, getattr(variable, 'Variable', ())):
        raise TypeError(
            'chainer.utils.sum_to takes arrays, not Variables; use chainer.functions.sum_to')
