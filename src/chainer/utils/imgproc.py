"""Image helpers for vision models."""
import numpy


def oversample(images, crop_dims):
    """Crops ten views of each image: four corners and the center, and their mirrors.

    This is the "10-crop" evaluation of image classifiers: the mean of the
    predictions over the views scores better than one center crop.

    Args:
        images (numpy.ndarray): Images of shape ``(N, C, H, W)``.
        crop_dims (pair of ints): Height and width ``(h, w)`` of a crop, at
            most ``(H, W)``.

    Returns:
        numpy.ndarray: Array of shape ``(10 * N, C, h, w)``. For each image
        in turn come the top-left, top-right, bottom-left, bottom-right and
        center crops, then the same five flipped left to right.
    """
    if images.ndim != 4:
        raise ValueError(
            f'oversample requires images of shape (N, C, H, W), got shape {images.shape}')
    n, c, height, width = images.shape
    h, w = crop_dims
    if not (0 < h <= height and 0 < w <= width):
        raise ValueError(
            f'oversample requires crops that fit the images, got crop_dims={tuple(crop_dims)} '
            f'for images of size {(height, width)}')
    top = (0, 0, height - h, height - h, (height - h) // 2)
    left = (0, width - w, 0, width - w, (width - w) // 2)
    crops = numpy.stack([images[:, :, t:t + h, l:l + w] for t, l in zip(top, left)], axis=1)
    crops = numpy.concatenate([crops, crops[..., ::-1]], axis=1)
    return crops.reshape(n * 10, c, h, w)
