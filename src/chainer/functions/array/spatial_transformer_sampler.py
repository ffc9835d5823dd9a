"""Bilinear image sampler of a spatial transformer, with zero padding outside the image."""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer.functions import _old_style
from chainer.utils import argument
from chainer.utils import type_check


def _compute_dtype(*dtypes):
    # Coordinates and bilinear weights need at least float32 precision.
    return numpy.promote_types(numpy.result_type(*dtypes), numpy.float32)


class _Plan:
    """The four neighbours of every sampling point and the point's fractional offsets.

    Corner ``k`` of point ``p`` (``k`` = 0: top-left, 1: top-right, 2: bottom-left,
    3: bottom-right) is pixel ``idx[:, k, p]`` of the flattened ``(h * w)`` image.
    Corners outside the image point at index ``h * w``: an extra pixel that
    reads as zero and whose gradient is dropped, which is the zero padding.
    ``u0``/``v0`` are the floors of the pixel coordinates, ``sx``/``sy`` the
    factors mapping ``[-1, 1]`` to pixels.
    """

    def __init__(self, grid, in_h, in_w):
        xp = backend.get_array_module(grid)
        n = grid.shape[0]
        self.n_points = grid.shape[2] * grid.shape[3]
        self.in_shape = (in_h, in_w)
        g = grid.reshape(n, 2, self.n_points).astype(_compute_dtype(grid.dtype), copy=False)
        self.sx = (in_w - 1) / 2
        self.sy = (in_h - 1) / 2
        u = (g[:, 0] + 1) * self.sx
        v = (g[:, 1] + 1) * self.sy
        self.u0 = xp.floor(u)
        self.v0 = xp.floor(v)
        self.fu = u - self.u0
        self.fv = v - self.v0
        # Clipping first keeps far-away points from overflowing the integer cast.
        iu0 = xp.clip(self.u0, -2, in_w).astype(numpy.intp)
        iv0 = xp.clip(self.v0, -2, in_h).astype(numpy.intp)
        iu = xp.stack([iu0, iu0 + 1, iu0, iu0 + 1], axis=1)
        iv = xp.stack([iv0, iv0, iv0 + 1, iv0 + 1], axis=1)
        inside = (iu >= 0) & (iu < in_w) & (iv >= 0) & (iv < in_h)
        self.idx = xp.where(inside, iv * in_w + iu, in_h * in_w)

    def gather(self, x):
        """Returns the corner values of ``x`` as an ``(n, 4, P, c)`` array."""
        xp = backend.get_array_module(x)
        n, c = x.shape[:2]
        hw = self.in_shape[0] * self.in_shape[1]
        # A channels-last copy with the zero pixel appended: every corner is then
        # one contiguous row, and one fancy index fetches them all.
        rows = xp.zeros((n, hw + 1, c), x.dtype)
        rows[:, :hw] = x.reshape(n, c, hw).transpose(0, 2, 1)
        return rows[xp.arange(n)[:, None, None], self.idx]

    def scatter(self, parts, dtype):
        """Adds four ``(n, c, P)`` corner contributions into a zero ``(n, c, h, w)`` image."""
        xp = backend.get_array_module(*parts)
        n, c = parts[0].shape[:2]
        hw = self.in_shape[0] * self.in_shape[1]
        if xp is numpy:
            # bincount is several times faster than numpy.add.at; one call per
            # channel keeps its index array small and its weights contiguous.
            flat = (self.idx + numpy.arange(n)[:, None, None] * (hw + 1)).ravel()
            # Weights laid out channel-major in bincount's float64, in one pass.
            w = numpy.empty((c, n, 4, self.n_points))
            for k, p in enumerate(parts):
                w[:, :, k] = p.transpose(1, 0, 2)
            out = numpy.empty((n, c, hw), dtype)
            for ch in range(c):
                total = numpy.bincount(flat, w[ch].ravel(), minlength=n * (hw + 1))
                out[:, ch] = total.reshape(n, hw + 1)[:, :hw]
        else:
            import cupyx
            acc = numpy.float32 if dtype == numpy.float16 else dtype
            vals = xp.stack(parts, axis=2).astype(acc, copy=False)   # (n, c, 4, P)
            out = xp.zeros((n, c, hw + 1), acc)
            cupyx.scatter_add(out, (xp.arange(n)[:, None, None, None],
                                    xp.arange(c)[None, :, None, None],
                                    self.idx[:, None]), vals)
            out = out[:, :, :hw].astype(dtype)
        return out.reshape((n, c) + self.in_shape)

    def weights(self):
        """Bilinear weights of the four corners, shape ``(n, 4, P)``."""
        fu, fv = self.fu, self.fv
        xp = backend.get_array_module(fu)
        return xp.stack([(1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv, fu * fv], axis=1)


class SpatialTransformerSampler(_old_style.FunctionCall, function_node.FunctionNode):
    """Samples ``x`` bilinearly at the points of ``grid``."""

    def check_type_forward(self, in_types):
        # (unnamed: Chainer's messages say in_types[i] for this function)
        type_check.expect(in_types.size() == 2)
        x_type, grid_type = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        if type_check.eval(grid_type.dtype).kind != 'f':
            # Float grids of another dtype are accepted (beyond Chainer, for
            # deformable_convolution_2d_sampler); other kinds get Chainer's words.
            type_check.expect(grid_type.dtype == x_type.dtype)
        type_check.expect(
            x_type.ndim == 4,
            grid_type.ndim == 4,
            grid_type.shape[1] == 2,
            x_type.shape[0] == grid_type.shape[0],
        )

    def forward(self, inputs):
        x, grid = inputs
        self.retain_inputs((0, 1))
        plan = _Plan(grid, *x.shape[2:])
        self._plan = plan
        dtype = _compute_dtype(x.dtype, grid.dtype)
        vals = plan.gather(x.astype(dtype, copy=False))          # (n, 4, P, c)
        w = plan.weights().astype(dtype, copy=False)[..., None]  # (n, 4, P, 1)
        y = vals[:, 0] * w[:, 0]
        for k in range(1, 4):
            y += vals[:, k] * w[:, k]
        y = y.transpose(0, 2, 1).astype(x.dtype)                 # (n, c, P)
        return y.reshape(x.shape[:2] + grid.shape[2:]),

    def backward(self, indexes, grad_outputs):
        F = chainer.functions
        x, grid = self.get_retained_inputs()
        gy, = grad_outputs
        plan = self._plan
        n, c = x.shape[:2]
        p = plan.n_points
        gy = F.reshape(gy, (n, c, p))
        # Fractional offsets as differentiable functions of grid (the floors are
        # locally constant), so that this backward can itself be differentiated.
        g = F.reshape(grid, (n, 2, p))
        fu = (g[:, 0] + 1) * plan.sx - plan.u0.astype(grid.dtype, copy=False)
        fv = (g[:, 1] + 1) * plan.sy - plan.v0.astype(grid.dtype, copy=False)
        if grid.dtype != x.dtype:
            fu, fv = F.cast(fu, x.dtype), F.cast(fv, x.dtype)
        ret = []
        if 0 in indexes:
            weights = ((1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv, fu * fv)
            parts = [gy * F.reshape(w, (n, 1, p)) for w in weights]
            ret.append(_CornerScatter(plan, x.dtype).apply(parts)[0])
        if 1 in indexes:
            # z[k] = sum over channels of gy times the value at corner k.
            z = [F.sum(gy * v, axis=1) for v in _CornerGather(plan).apply((x,))]
            gu = plan.sx * ((1 - fv) * (z[1] - z[0]) + fv * (z[3] - z[2]))
            gv = plan.sy * ((1 - fu) * (z[2] - z[0]) + fu * (z[3] - z[1]))
            ggrid = F.concat((F.reshape(gu, (n, 1, p)), F.reshape(gv, (n, 1, p))), axis=1)
            if ggrid.dtype != grid.dtype:
                ggrid = F.cast(ggrid, grid.dtype)
            ret.append(F.reshape(ggrid, grid.shape))
        return tuple(ret)


class _CornerGather(function_node.FunctionNode):
    """Reads the four corner values of each sampling point: ``x -> (v0, v1, v2, v3)``."""

    def __init__(self, plan):
        self._plan = plan

    def forward(self, inputs):
        x, = inputs
        self._dtype = x.dtype
        vals = self._plan.gather(x)
        return tuple(vals[:, k].transpose(0, 2, 1) for k in range(4))

    def backward(self, indexes, grad_outputs):
        shapes = [g for g in grad_outputs if g is not None]
        xp = backend.get_array_module(*shapes)
        zero = xp.zeros(shapes[0].shape, self._dtype)
        gs = [zero if g is None else g for g in grad_outputs]
        return _CornerScatter(self._plan, self._dtype).apply(gs)


class _CornerScatter(function_node.FunctionNode):
    """Adds the four corner contributions back into an image (adjoint of the gather)."""

    def __init__(self, plan, dtype):
        self._plan = plan
        self._dtype = dtype

    def forward(self, inputs):
        return self._plan.scatter(inputs, self._dtype),

    def backward(self, indexes, grad_outputs):
        outs = _CornerGather(self._plan).apply(grad_outputs)
        return tuple(outs[i] for i in indexes)


def spatial_transformer_sampler(x, grid, **kwargs):
    """Samples images at given points by bilinear interpolation (2D spatial transformer).

    Output pixel ``(i, j)`` of image ``b`` is the input ``x[b]`` interpolated at
    the location ``grid[b, :, i, j]``. Locations are normalized: ``(-1, -1)`` is
    the centre of the upper-left pixel and ``(1, 1)`` that of the lower-right
    one; the image is padded with zeros, so points outside it fade to zero.
    Both ``x`` and ``grid`` get gradients (see Jaderberg et al., *Spatial
    Transformer Networks*, 2015).

    Args:
        x (~chainer.Variable or N-dimensional array): Images of shape
            ``(n, c_I, h, w)``.
        grid (~chainer.Variable or N-dimensional array): Sampling points of
            shape ``(n, 2, h_O, w_O)``; ``grid[:, 0]`` is the horizontal (x)
            coordinate and ``grid[:, 1]`` the vertical (y) one, as produced by
            :func:`~chainer.functions.spatial_transformer_grid`.

    Returns:
        ~chainer.Variable: Sampled images of shape ``(n, c_I, h_O, w_O)``.

    .. admonition:: Example

        >>> x = np.arange(4, dtype=np.float32).reshape(1, 1, 2, 2)
        >>> grid = np.array([[[[0.]], [[0.]]]], np.float32)  # the image centre
        >>> F.spatial_transformer_sampler(x, grid).array
        array([[[[1.5]]]], dtype=float32)
    """
    if kwargs:
        argument.check_unexpected_kwargs(
            kwargs, use_cudnn='The argument "use_cudnn" is not supported anymore. '
            'Use chainer.using_config(\'use_cudnn\', value) context where value can be '
            '`always`, `never`, or `auto`.')
        argument.assert_kwargs_empty(kwargs)
    return SpatialTransformerSampler().apply((x, grid))[0]
