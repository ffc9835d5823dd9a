"""Deformable 2-D convolution: each kernel tap samples the input at a learned offset."""
import numpy

import chainer
from chainer import backend
from chainer.functions import _checks
from chainer.utils import conv_nd
from chainer.utils import type_check


def _check_shapes(x, offset, W, b):
    for name, v in (('x', x), ('offset', offset), ('W', W)):
        _checks.shape_of('deformable_convolution_2d_sampler', name, v)
    if x.ndim != 4 or offset.ndim != 4 or W.ndim != 4:
        raise ValueError(
            f'deformable_convolution_2d_sampler requires 4-D x, offset and W, got '
            f'x.shape={x.shape}, offset.shape={offset.shape}, W.shape={W.shape}')
    _, in_c, kh, kw = W.shape
    if offset.shape[1] != 2 * kh * kw:
        raise ValueError(
            f'The shape of the offset does not match the kernel size: '
            f'deformable_convolution_2d_sampler requires offset.shape[1] == 2 * kh * kw = '
            f'{2 * kh * kw} for a {kh}x{kw} kernel (W of shape {W.shape}), got '
            f'{offset.shape[1]}')
    if x.shape[1] != in_c:
        raise ValueError(
            f'deformable_convolution_2d_sampler requires x.shape[1] == W.shape[1], got '
            f'{x.shape[1]} channels in x and {in_c} in W')
    if offset.shape[0] != x.shape[0]:
        raise ValueError(
            f'deformable_convolution_2d_sampler requires one offset map per image, got '
            f'{offset.shape[0]} for a batch of {x.shape[0]}')
    if offset.dtype.kind != 'f':
        # (InvalidType, as Chainer 7.8.1's sampler refuses it; floats of another dtype than
        # x's are taken, docs/differences.md)
        raise type_check.InvalidType(
            'offset.dtype.kind == f', f'{offset.dtype.kind} != f',
            f'deformable_convolution_2d_sampler: offset must be float, got {offset.dtype}')
    if b is not None and b.shape != W.shape[:1]:
        raise ValueError(
            f'deformable_convolution_2d_sampler requires b.shape == ({W.shape[0]},), got '
            f'{b.shape}')


def _grid(offset, kh, kw, sy, sx, in_h, in_w):
    """Normalized sampling points ``(n, 2, kh * kw, out_h * out_w)`` (x first, then y).

    Tap ``(p, q)`` of output ``(i, j)`` reads pixel ``(i sy + p, j sx + q)`` of the
    padded image, moved by its offset; the sampler wants ``[-1, 1]`` coordinates.
    """
    F = chainer.functions
    xp = backend.get_array_module(offset)
    n, _, out_h, out_w = offset.shape
    dtype = numpy.promote_types(offset.dtype, numpy.float32)
    rows = xp.arange(out_h)[None, None, :, None] * sy + xp.arange(kh)[:, None, None, None]
    cols = xp.arange(out_w)[None, None, None, :] * sx + xp.arange(kw)[None, :, None, None]
    shape = (kh, kw, out_h, out_w)
    base = xp.stack([xp.broadcast_to(cols, shape), xp.broadcast_to(rows, shape)])
    base = base.reshape(1, 2, kh * kw, out_h * out_w).astype(dtype)
    # A 1-pixel axis has no extent to normalize by; any coordinate reads its pixel.
    scale = xp.array([2 / max(in_w - 1, 1), 2 / max(in_h - 1, 1)], dtype).reshape(1, 2, 1, 1)
    off = F.reshape(offset, (n, 2, kh * kw, out_h * out_w))
    if off.dtype != dtype:
        off = F.cast(off, dtype)
    return (off + base) * scale - 1


def deformable_convolution_2d_sampler(x, offset, W, b=None, stride=1, pad=0):
    """Deformable convolution: a 2-D convolution whose taps sample the input at offsets.

    Each kernel tap ``(p, q)`` of each output position ``(i, j)`` reads ``x``
    bilinearly (zero outside the image) at

    .. math::
        (i s_y - p_h + p + \\Delta y_{p q i j},\\; j s_x - p_w + q + \\Delta x_{p q i j}),

    and the output is :math:`y_{n o i j} = \\sum_{c p q} W_{o c p q}\\,
    \\tilde x_{n c p q i j} + b_o`. With zero offsets this is
    :func:`~chainer.functions.convolution_2d`. Gradients flow to ``x``,
    ``offset``, ``W`` and ``b``, and can be differentiated again.

    Args:
        x (~chainer.Variable or N-dimensional array): Input of shape
            ``(n, c, h, w)``.
        offset (~chainer.Variable or N-dimensional array): Offsets of shape
            ``(n, 2 * kh * kw, out_h, out_w)``: channels ``0 .. kh kw - 1``
            hold :math:`\\Delta x` and the others :math:`\\Delta y`, tap
            ``(p, q)`` at index ``p * kw + q``. Its spatial shape sets the
            output size.
        W (~chainer.Variable or N-dimensional array): Filters of shape
            ``(out_c, c, kh, kw)``.
        b (~chainer.Variable or N-dimensional array): Optional bias of shape
            ``(out_c,)``.
        stride (int or pair of ints): Stride ``(sy, sx)``.
        pad (int or pair of ints): Zero padding ``(ph, pw)``.

    Returns:
        ~chainer.Variable: Output of shape ``(n, out_c, out_h, out_w)`` and the
        dtype of ``x``.

    See: Dai et al., *Deformable Convolutional Networks*, 2017.

    .. admonition:: Example

        >>> x = np.arange(16, dtype=np.float32).reshape(1, 1, 4, 4)
        >>> W = np.ones((1, 1, 1, 1), np.float32)
        >>> offset = np.zeros((1, 2, 4, 4), np.float32)
        >>> offset[:, 0] = 0.5                  # read half a pixel to the right
        >>> y = F.deformable_convolution_2d_sampler(x, offset, W)
        >>> y.array[0, 0, 0].round(4)           # the last tap half leaves the image
        array([0.5, 1.5, 2.5, 1.5], dtype=float32)
    """
    F = chainer.functions
    _check_shapes(x, offset, W, b)
    sy, sx = conv_nd.as_tuple(stride, 2)
    ph, pw = conv_nd.as_tuple(pad, 2)
    n, c, h, w = x.shape
    out_c, _, kh, kw = W.shape
    out_h, out_w = offset.shape[2:]
    if ph or pw:
        x = F.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), 'constant')
    grid = _grid(offset, kh, kw, sy, sx, h + 2 * ph, w + 2 * pw)
    sampled = F.spatial_transformer_sampler(x, grid)  # (n, c, kh * kw, out_h * out_w)
    sampled = F.reshape(sampled, (n, c * kh * kw, out_h * out_w))
    y = F.matmul(F.reshape(W, (out_c, c * kh * kw)), sampled)
    y = F.reshape(y, (n, out_c, out_h, out_w))
    if b is not None:
        y = y + F.reshape(b, (1, out_c, 1, 1))
    return y if y.dtype == x.dtype else F.cast(y, x.dtype)
