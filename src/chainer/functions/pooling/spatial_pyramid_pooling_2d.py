"""Spatial pyramid pooling: fixed-length features from images of any size."""
import math

from chainer.functions import _checks
from chainer.functions.array import concat
from chainer.functions.array import reshape
from chainer.functions.pooling import max_pooling_nd


def spatial_pyramid_pooling_2d(x, pyramid_height, pooling=None):
    """Spatial pyramid pooling function.

    Level ``l`` (``0 <= l < pyramid_height``) max-pools the image into about
    ``2**l x 2**l`` bins (windows of ``ceil(h / 2**l) x ceil(w / 2**l)``,
    padded evenly); the pooled maps of all levels are flattened per image and
    concatenated, so the output length does not depend on the image size once
    it is large enough.

    Args:
        x (~chainer.Variable or N-dimensional array): Float input of shape
            ``(n, c, h, w)``.
        pyramid_height (int): Number of pyramid levels.
        pooling (str): Pooling operation; only ``'max'`` is supported.

    Returns:
        ~chainer.Variable: Output of shape ``(n, c * total_bins, 1, 1)``.

    See the original paper: `Spatial Pyramid Pooling in Deep Convolutional
    Networks for Visual Recognition <https://arxiv.org/abs/1406.4729>`_.

    .. admonition:: Example

        >>> x = np.random.rand(2, 3, 8, 8).astype(np.float32)
        >>> F.spatial_pyramid_pooling_2d(x, 3, 'max').shape
        (2, 63, 1, 1)
    """
    if pooling != 'max':
        raise ValueError(
            f"spatial_pyramid_pooling_2d: unsupported pooling operation {pooling!r}; "
            f"the only one is 'max'")
    if len(_checks.shape_of('spatial_pyramid_pooling_2d', 'x', x)) != 4:
        raise ValueError(f'spatial_pyramid_pooling_2d: x must have shape (n, c, h, w), '
                         f'got {tuple(x.shape)}')
    n, _, h, w = x.shape
    ys = []
    for level in range(pyramid_height):
        bins = 2 ** level
        ksize = (math.ceil(h / bins), math.ceil(w / bins))
        pad = ((ksize[0] * bins - h) // 2, (ksize[1] * bins - w) // 2)
        y = max_pooling_nd.max_pooling_2d(x, ksize, ksize, pad)
        ys.append(reshape.reshape(y, (n, -1, 1, 1)))
    return concat.concat(ys, axis=1)
