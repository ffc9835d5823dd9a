"""Round trips through a serializer, for testing ``serialize`` methods."""
import os

from chainer import utils


def save_and_load(src, dst, filename, saver, loader):
    """Saves ``src`` with ``saver`` and loads the file into ``dst`` with ``loader``.

    The file lives in a fresh temporary directory, removed afterwards, so the
    round trip leaves nothing behind.

    Args:
        src: Object to save.
        dst: Object to load into.
        filename (str): Name of the file inside the temporary directory.
        saver (callable): ``saver(path, src)``, e.g. :func:`chainer.serializers.save_npz`.
        loader (callable): ``loader(path, dst)``, e.g. :func:`chainer.serializers.load_npz`.
    """
    with utils.tempdir() as directory:
        path = os.path.join(directory, filename)
        saver(path, src)
        loader(path, dst)


def save_and_load_npz(src, dst):
    """:func:`save_and_load` through an NPZ file (``save_npz``/``load_npz``)."""
    from chainer import serializers
    save_and_load(src, dst, 'tmp.npz', serializers.save_npz, serializers.load_npz)


def save_and_load_hdf5(src, dst):
    """:func:`save_and_load` through an HDF5 file (``save_hdf5``/``load_hdf5``; needs h5py)."""
    from chainer import serializers
    save_and_load(src, dst, 'tmp.h5', serializers.save_hdf5, serializers.load_hdf5)
