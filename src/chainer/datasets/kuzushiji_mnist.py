"""Kuzushiji-MNIST: 28x28 images of cursive Japanese (hiragana) characters."""
import numpy

from chainer.datasets import _mnist_helper

_BASE_URL = 'http://codh.rois.ac.jp/kmnist/dataset/kmnist/'

_kuzushiji_mnist_labels = [('o', '\u304A'), ('ki', '\u304D'), ('su', '\u3059'),
                           ('tsu', '\u3064'), ('na', '\u306A'), ('ha', '\u306F'),
                           ('ma', '\u307E'), ('ya', '\u3084'), ('re', '\u308C'),
                           ('wo', '\u3092')]


def get_kuzushiji_mnist_labels():
    """Returns ``(romanization, character)`` of each Kuzushiji-MNIST class, by label."""
    return list(_kuzushiji_mnist_labels)


def get_kuzushiji_mnist(withlabel=True, ndim=1, scale=1., dtype=None,
                        label_dtype=numpy.int32, rgb_format=False):
    """Returns Kuzushiji-MNIST (same arguments and layout as :func:`get_mnist`).

    Returns:
        tuple: ``(train, test)``.
    """
    return _mnist_helper.get_mnist_like('kuzushiji_mnist', _BASE_URL, withlabel, ndim,
                                        scale, dtype, label_dtype, rgb_format)
