"""A dataset cache in Chainer's MNIST layout filled with scikit-learn's digits.

ChainerMN's examples call ``chainer.datasets.get_mnist()``, which reads
``$CHAINER_DATASET_ROOT/pfnet/chainer/mnist/{train,test}.npz`` (``x``: uint8 images flattened to
784 values, ``y``: uint8 labels) before trying to download. Without network, this writes the
1,797 8x8 digits there instead, each scaled to 0-255, enlarged 3x to 24x24 and centred in 28x28.

    python tests/chainermn_tests/_digits_mnist.py ROOT   # then CHAINER_DATASET_ROOT=ROOT
"""
import os
import sys

import numpy

N_TEST = 300


def digits_as_mnist():
    """``(x, y)``: the digits as 28x28 uint8 images (flattened) and uint8 labels."""
    from sklearn.datasets import load_digits
    digits = load_digits()
    images = numpy.kron(digits.images / 16.0, numpy.ones((3, 3)))  # 8x8 -> 24x24
    images = numpy.pad(images, ((0, 0), (2, 2), (2, 2)))  # centred in 28x28
    x = numpy.round(images * 255).astype(numpy.uint8).reshape(len(images), 28 * 28)
    return x, digits.target.astype(numpy.uint8)


def write_cache(root):
    """Writes ``pfnet/chainer/mnist/{train,test}.npz`` under ``root``; returns their sizes."""
    x, y = digits_as_mnist()
    order = numpy.random.RandomState(0).permutation(len(x))
    x, y = x[order], y[order]
    folder = os.path.join(root, 'pfnet', 'chainer', 'mnist')
    os.makedirs(folder, exist_ok=True)
    numpy.savez_compressed(os.path.join(folder, 'train.npz'), x=x[N_TEST:], y=y[N_TEST:])
    numpy.savez_compressed(os.path.join(folder, 'test.npz'), x=x[:N_TEST], y=y[:N_TEST])
    return len(x) - N_TEST, N_TEST


if __name__ == '__main__':
    print(write_cache(sys.argv[1]))
