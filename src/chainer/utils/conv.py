"""Output sizes and im2col/col2im for 2-D convolution and pooling.

``im2col`` turns an image batch ``(n, c, h, w)`` into the patch array
``(n, c, kh, kw, out_h, out_w)`` whose ``[:, :, j, i, y, x]`` entry is the
input pixel under kernel tap ``(j, i)`` of output position ``(y, x)``;
``col2im`` is its adjoint (it sums patches back into an image). Both are
written once against ``xp`` (NumPy or CuPy): a strided view plus one copy for
``im2col``, one slice-add per kernel tap for ``col2im``.
"""
import importlib
import sys

import numpy


def get_conv_outsize(size, k, s, p, cover_all=False, d=1):
    """Calculates the output size of a convolution along one axis.

    Args:
        size (int): Input size.
        k (int): Kernel size.
        s (int): Stride.
        p (int): Padding on each side.
        cover_all (bool): If ``True``, add an output for a last partial window
            so that every input element is covered.
        d (int): Dilation.

    Returns:
        int: The output size.
    """
    span = (k - 1) * d + 1
    if cover_all:
        return (size + 2 * p - span + s - 1) // s + 1
    return (size + 2 * p - span) // s + 1


def get_deconv_outsize(size, k, s, p, cover_all=False, d=1):
    """Calculates the output size of a deconvolution along one axis.

    This is the input size of the convolution whose output size is ``size``.

    Args:
        size (int): Input size.
        k (int): Kernel size.
        s (int): Stride.
        p (int): Padding on each side.
        cover_all (bool): Whether the matching convolution uses ``cover_all``.
        d (int): Dilation.

    Returns:
        int: The output size.
    """
    span = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + span - s + 1 - 2 * p
    return s * (size - 1) + span - 2 * p


def _array_module(x):
    # CuPy arrays can only exist once cupy has been imported, so looking it up
    # in sys.modules tells the two apart without importing CuPy ourselves.
    cupy = sys.modules.get('cupy')
    if cupy is not None and isinstance(x, cupy.ndarray):
        return cupy
    return numpy


def _out_sizes(h, w, kh, kw, sy, sx, ph, pw, cover_all, dy, dx, out_h, out_w):
    if out_h is None:
        out_h = get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    if out_w is None:
        out_w = get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    if out_h <= 0:
        raise ValueError(f'im2col requires a positive output height, got {out_h}')
    if out_w <= 0:
        raise ValueError(f'im2col requires a positive output width, got {out_w}')
    return out_h, out_w


def _im2col(img, kh, kw, sy, sx, ph, pw, pval, cover_all, dy, dx, out_h, out_w):
    xp = _array_module(img)
    n, c, h, w = img.shape
    out_h, out_w = _out_sizes(h, w, kh, kw, sy, sx, ph, pw, cover_all, dy, dx, out_h, out_w)
    # Rows/columns the windows reach in padded coordinates; cover_all (or an
    # explicit out_h/out_w) may reach past the usual padding.
    need_h = (kh - 1) * dy + (out_h - 1) * sy + 1
    need_w = (kw - 1) * dx + (out_w - 1) * sx + 1
    pad_h = max(need_h - ph - h, 0)
    pad_w = max(need_w - pw - w, 0)
    if ph or pw or pad_h or pad_w:
        padded = xp.full((n, c, ph + h + pad_h, pw + w + pad_w), pval, dtype=img.dtype)
        padded[:, :, ph:ph + h, pw:pw + w] = img
    else:
        padded = img
    s0, s1, s2, s3 = padded.strides
    as_strided = importlib.import_module(f'{xp.__name__}.lib.stride_tricks').as_strided
    windows = as_strided(
        padded, (n, c, kh, kw, out_h, out_w),
        (s0, s1, s2 * dy, s3 * dx, s2 * sy, s3 * sx))
    # copy(), not ascontiguousarray(): a 1x1 window view may already be
    # contiguous, and the result must never alias the input.
    return windows.copy()


def _col2im(col, sy, sx, ph, pw, h, w, dy, dx):
    xp = _array_module(col)
    n, c, kh, kw, out_h, out_w = col.shape
    full_h = max(ph + h, (kh - 1) * dy + (out_h - 1) * sy + 1)
    full_w = max(pw + w, (kw - 1) * dx + (out_w - 1) * sx + 1)
    img = xp.zeros((n, c, full_h, full_w), dtype=col.dtype)
    for j in range(kh):
        y0 = j * dy
        for i in range(kw):
            x0 = i * dx
            img[:, :, y0:y0 + sy * out_h:sy, x0:x0 + sx * out_w:sx] += col[:, :, j, i]
    return img[:, :, ph:ph + h, pw:pw + w]


def im2col_cpu(img, kh, kw, sy, sx, ph, pw, pval=0, cover_all=False, dy=1, dx=1,
               out_h=None, out_w=None):
    """Extracts convolution patches from an image batch.

    Args:
        img (array): Images of shape ``(n, c, h, w)``.
        kh, kw (int): Kernel height and width.
        sy, sx (int): Strides.
        ph, pw (int): Paddings.
        pval: Value used for padding.
        cover_all (bool): See :func:`get_conv_outsize`.
        dy, dx (int): Dilations.
        out_h, out_w (int): Output size; computed when omitted.

    Returns:
        array: A new C-contiguous array of shape ``(n, c, kh, kw, out_h, out_w)``.
    """
    return _im2col(img, kh, kw, sy, sx, ph, pw, pval, cover_all, dy, dx, out_h, out_w)


def im2col_gpu(img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1,
               out_h=None, out_w=None):
    """GPU version of :func:`im2col_cpu` (padding with zeros)."""
    return _im2col(img, kh, kw, sy, sx, ph, pw, 0, cover_all, dy, dx, out_h, out_w)


def col2im_cpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """Sums convolution patches back into an image batch (adjoint of im2col).

    Args:
        col (array): Patches of shape ``(n, c, kh, kw, out_h, out_w)``.
        sy, sx (int): Strides.
        ph, pw (int): Paddings.
        h, w (int): Height and width of the image.
        dy, dx (int): Dilations.

    Returns:
        array: The image batch of shape ``(n, c, h, w)``.
    """
    return _col2im(col, sy, sx, ph, pw, h, w, dy, dx)


def col2im_gpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """GPU version of :func:`col2im_cpu`."""
    return _col2im(col, sy, sx, ph, pw, h, w, dy, dx)
