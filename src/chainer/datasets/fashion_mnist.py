"""Fashion-MNIST: 28x28 grey images of clothes in 10 classes."""
import numpy

from chainer.datasets import _mnist_helper

_BASE_URL = 'http://fashion-mnist.s3-website.eu-central-1.amazonaws.com/'
# Debian's package dataset-fashion-mnist installs the raw files here.
_SYSTEM_DIR = '/usr/share/datasets/fashion-mnist'

_fashion_mnist_labels = ['T-shirt/top', 'Trouser', 'Pullover', 'Dress', 'Coat', 'Sandal',
                         'Shirt', 'Sneaker', 'Bag', 'Ankle boot']


def get_fashion_mnist_labels():
    """Returns the class names of Fashion-MNIST, by label."""
    return list(_fashion_mnist_labels)


def get_fashion_mnist(withlabel=True, ndim=1, scale=1., dtype=None, label_dtype=numpy.int32,
                      rgb_format=False):
    """Returns Fashion-MNIST (same arguments and layout as :func:`get_mnist`).

    The raw files come from the dataset cache, else from Debian's
    ``dataset-fashion-mnist`` package (``/usr/share/datasets/fashion-mnist``)
    when it is installed, else from the download.

    Returns:
        tuple: ``(train, test)``.
    """
    return _mnist_helper.get_mnist_like('fashion-mnist', _BASE_URL, withlabel, ndim, scale,
                                        dtype, label_dtype, rgb_format,
                                        fallback_dir=_SYSTEM_DIR)
