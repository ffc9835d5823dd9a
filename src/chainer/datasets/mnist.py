"""MNIST handwritten digits."""
import numpy

from chainer.datasets import _mnist_helper

_BASE_URL = 'http://yann.lecun.com/exdb/mnist/'


def get_mnist(withlabel=True, ndim=1, scale=1., dtype=None, label_dtype=numpy.int32,
              rgb_format=False):
    """Returns the MNIST dataset: 60000 training and 10000 test 28x28 digits.

    The files are downloaded once into the dataset cache (see
    :func:`chainer.dataset.get_dataset_root`); a cache written by Chainer is
    reused as it is.

    Args:
        withlabel (bool): Return ``(image, label)`` pairs (a
            :class:`~chainer.datasets.TupleDataset`), else an array of images.
        ndim (int): 1: images as vectors of 784; 2: ``(28, 28)``; 3:
            ``(1, 28, 28)`` (``(3, 28, 28)`` with ``rgb_format``).
        scale (float): Pixel values are scaled to ``[0, scale]``.
        dtype: Image dtype (``chainer.config.dtype`` by default).
        label_dtype: Label dtype.
        rgb_format (bool): With ``ndim=3``, repeat the grey channel three times.

    Returns:
        tuple: ``(train, test)``.
    """
    return _mnist_helper.get_mnist_like('mnist', _BASE_URL, withlabel, ndim, scale, dtype,
                                        label_dtype, rgb_format)
