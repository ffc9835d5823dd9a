"""Resize images by bilinear or nearest-neighbour interpolation."""
import numpy

from chainer import backend
from chainer import function_node
from chainer.functions import _checks
from chainer.utils import type_check

# Up to this input width a product with the dense interpolation matrix (one big
# GEMM) beats a gather along the last axis; above it the O(in * out) product loses.
# Measured on NumPy.
_DENSE_MAX_WIDTH = 256
# Above this many contributions per input pixel the transposed gather loops too
# often; the (then small) dense matrix takes over.
_MAX_TABLE_WIDTH = 16


class _AxisPlan:
    """How one axis of length ``in_size`` is resampled to ``out_size``.

    Output ``o`` is ``w0[o] * x[i0[o]] + w1[o] * x[i1[o]]``.
    """

    def __init__(self, in_size, out_size, mode, align_corners):
        self.in_size = in_size
        self.out_size = out_size
        self.mode = mode
        self.align_corners = align_corners
        if align_corners:
            u = numpy.linspace(0, in_size - 1, out_size)
            if mode == 'nearest':
                u = numpy.round(u)
        elif mode == 'bilinear':
            # Pixel centres line up, as in OpenCV's INTER_LINEAR.
            u = (numpy.arange(out_size) + 0.5) * (in_size / out_size) - 0.5
            u = numpy.clip(u, 0, in_size - 1)
        else:
            # OpenCV's INTER_NEAREST: floor of the scaled output index.
            u = numpy.minimum(numpy.floor(numpy.arange(out_size) * (in_size / out_size)),
                              in_size - 1)
        i0 = numpy.floor(u).astype(numpy.intp)
        self.i0 = i0
        self.i1 = numpy.minimum(i0 + 1, in_size - 1)
        self.w1 = u - i0
        self.w0 = 1 - self.w1
        self._matrix = None
        self._table = None

    def matrix(self):
        """The map as a dense ``(out_size, in_size)`` array."""
        if self._matrix is None:
            m = numpy.zeros((self.out_size, self.in_size))
            rows = numpy.arange(self.out_size)
            numpy.add.at(m, (rows, self.i0), self.w0)
            numpy.add.at(m, (rows, self.i1), self.w1)
            self._matrix = m
        return self._matrix

    def table(self):
        """The adjoint map as a gather: ``(sources, weights)``, both ``(in_size, K)``.

        Input ``i`` receives ``sum_k weights[i, k] * g[sources[i, k]]``; unused
        slots have weight zero.
        """
        if self._table is None:
            src = numpy.concatenate([numpy.arange(self.out_size)] * 2)
            dst = numpy.concatenate([self.i0, self.i1])
            w = numpy.concatenate([self.w0, self.w1])
            keep = w != 0
            src, dst, w = src[keep], dst[keep], w[keep]
            order = numpy.argsort(dst, kind='stable')
            src, dst, w = src[order], dst[order], w[order]
            counts = numpy.bincount(dst, minlength=self.in_size)
            k = int(counts.max()) if len(counts) else 0
            slot = numpy.arange(len(dst)) - numpy.repeat(numpy.cumsum(counts) - counts, counts)
            sources = numpy.zeros((self.in_size, k), numpy.intp)
            weights = numpy.zeros((self.in_size, k))
            sources[dst, slot] = src
            weights[dst, slot] = w
            self._table = sources, weights
        return self._table

    def apply(self, x, axis, xp):
        """Resamples ``x`` along ``axis`` (``-1`` or ``-2``)."""
        if self.mode == 'nearest':
            return x.take(_on(xp, self.i0), axis)
        if axis == -1 and self.in_size <= _DENSE_MAX_WIDTH:
            return _matmul_last(x, _on(xp, self.matrix().T, x.dtype))
        # Along the height this copies whole rows, which stays fast for any size.
        shape = (-1,) if axis == -1 else (-1, 1)
        w0 = _on(xp, self.w0.reshape(shape), x.dtype)
        w1 = _on(xp, self.w1.reshape(shape), x.dtype)
        return x.take(_on(xp, self.i0), axis) * w0 + x.take(_on(xp, self.i1), axis) * w1

    def apply_transpose(self, g, axis, xp):
        """Applies the adjoint map (the gradient of :meth:`apply`) along ``axis``."""
        if axis == -1 and self.in_size <= _DENSE_MAX_WIDTH:
            return _matmul_last(g, _on(xp, self.matrix(), g.dtype))
        sources, weights = self.table()
        if sources.shape[1] > _MAX_TABLE_WIDTH:
            m = _on(xp, self.matrix(), g.dtype)
            return _matmul_last(g, m) if axis == -1 else m.T @ g
        shape = (-1,) if axis == -1 else (-1, 1)
        out = None
        for k in range(sources.shape[1]):
            w = _on(xp, weights[:, k].reshape(shape), g.dtype)
            term = g.take(_on(xp, sources[:, k]), axis) * w
            out = term if out is None else out + term
        if out is None:
            shape = list(g.shape)
            shape[axis] = self.in_size
            out = xp.zeros(shape, g.dtype)
        return out


def _on(xp, a, dtype=None):
    # Host-side plan arrays moved to the array module of the data.
    if dtype is not None:
        a = a.astype(dtype)
    return a if xp is numpy else xp.asarray(a)


def _matmul_last(x, m):
    # Contracts the last axis of x with the rows of m in one 2-D product.
    return (x.reshape(-1, x.shape[-1]) @ m).reshape(x.shape[:-1] + (m.shape[1],))


def _resample(x, plans, transpose):
    # float16 products lose too much precision (and NumPy has no float16 BLAS).
    xp = backend.get_array_module(x)
    y = x.astype(numpy.float32) if x.dtype == numpy.float16 else x
    for axis, plan in zip((-1, -2), plans[::-1]):
        if plan.in_size != plan.out_size:
            y = plan.apply_transpose(y, axis, xp) if transpose else plan.apply(y, axis, xp)
    return y.astype(x.dtype, copy=False) if y is not x else y.copy()


class ResizeImages(function_node.FunctionNode):
    """Resamples the two spatial axes of an ``(n, c, h, w)`` batch."""

    def __init__(self, output_shape, mode, align_corners):
        if mode not in ('bilinear', 'nearest'):
            raise ValueError(f"resize_images: mode must be 'bilinear' or 'nearest', "
                             f'got {mode!r}')
        out_h, out_w = output_shape
        self.out_H = int(out_h)
        self.out_W = int(out_w)
        self.mode = mode
        self.align_corners = bool(align_corners)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        _checks.expect_kind_of(x_type, numpy.float32)
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
        )

    def _plans(self, in_h, in_w):
        return (_AxisPlan(in_h, self.out_H, self.mode, self.align_corners),
                _AxisPlan(in_w, self.out_W, self.mode, self.align_corners))

    def forward(self, inputs):
        x, = inputs
        self._plan_pair = self._plans(*x.shape[2:])
        return _resample(x, self._plan_pair, transpose=False),

    def backward(self, indexes, grad_outputs):
        return ResizeImagesGrad(self._plan_pair).apply(grad_outputs)


class ResizeImagesGrad(function_node.FunctionNode):
    """Spreads the output gradient back onto the input pixels (the adjoint resampling)."""

    def __init__(self, plans):
        self._plan_pair = plans

    def forward(self, inputs):
        gy, = inputs
        return _resample(gy, self._plan_pair, transpose=True),

    def backward(self, indexes, grad_outputs):
        h, w = self._plan_pair
        return ResizeImages((h.out_size, w.out_size), h.mode, h.align_corners).apply(
            grad_outputs)


def resize_images(x, output_shape, *, mode='bilinear', align_corners=True):
    """Resizes a batch of images to the given height and width.

    Args:
        x (~chainer.Variable or N-dimensional array): Images of shape
            ``(n, c_I, h, w)``.
        output_shape (tuple): ``(h_O, w_O)``, the output height and width (note
            that OpenCV orders them the other way round).
        mode ({'bilinear', 'nearest'}): The interpolation used.
        align_corners (bool): If ``True``, the corner pixels of the input and
            the output are aligned (the centre of output pixel ``i`` samples
            input coordinate ``i * (h - 1) / (h_O - 1)``). If ``False``, pixel
            centres are scaled as OpenCV's ``cv2.resize`` does.

    Returns:
        ~chainer.Variable: Resized images of shape ``(n, c_I, h_O, w_O)``.

    .. admonition:: Example

        >>> x = np.array([[[[0, 1], [2, 3]]]], np.float32)
        >>> F.resize_images(x, (3, 3)).array
        array([[[[0. , 0.5, 1. ],
                 [1. , 1.5, 2. ],
                 [2. , 2.5, 3. ]]]], dtype=float32)
    """
    return ResizeImages(output_shape, mode, align_corners).apply((x,))[0]
