"""Output sizes and im2col/col2im for 2-D convolution and pooling.

``im2col`` turns an image batch ``(n, c, h, w)`` into the patch array
``(n, c, kh, kw, out_h, out_w)`` whose ``[:, :, j, i, y, x]`` entry is the
input pixel under kernel tap ``(j, i)`` of output position ``(y, x)``;
``col2im`` is its adjoint (it sums patches back into an image). Both are
the N-dimensional code of :mod:`chainer.utils.conv_nd` with two spatial axes.
"""
from chainer.utils import conv_nd as _conv_nd
from chainer.utils._conv_sizes import get_conv_outsize, get_deconv_outsize  # NOQA


def _im2col(img, kh, kw, sy, sx, ph, pw, pval, cover_all, dy, dx, out_h, out_w):
    return _conv_nd._im2col_nd(img, (kh, kw), (sy, sx), (ph, pw), pval, cover_all, (dy, dx),
                               (out_h, out_w))


def _col2im(col, sy, sx, ph, pw, h, w, dy, dx):
    return _conv_nd._col2im_nd(col, (sy, sx), (ph, pw), (h, w), (dy, dx))


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


def im2col(img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1, out_h=None, out_w=None):
    """:func:`im2col_cpu` or :func:`im2col_gpu`, as ``img`` lives (zero padding)."""
    return _im2col(img, kh, kw, sy, sx, ph, pw, 0, cover_all, dy, dx, out_h, out_w)


def col2im(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """:func:`col2im_cpu` or :func:`col2im_gpu`, as ``col`` lives."""
    return _col2im(col, sy, sx, ph, pw, h, w, dy, dx)
