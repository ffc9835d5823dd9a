"""Datasets of image files (on disk or inside zip archives), read with Pillow.

Pillow is the optional extra ``image`` (``pip install rechainer[image]``); it is
imported when the first image is read.
"""
import importlib.util
import io
import os
import threading
import zipfile

import numpy

import chainer
from chainer.dataset import dataset_mixin

# Whether Pillow, which reads the images, is installed (it is imported on first use).
available = importlib.util.find_spec('PIL') is not None


def _pil_image():
    try:
        from PIL import Image
    except ImportError as e:
        raise ImportError(
            'reading images requires Pillow; install it with `pip install Pillow` '
            '(or the extra `pip install rechainer[image]`)') from e
    return Image


def _read_image_as_array(source, dtype):
    # `source` is a path or a file object. The array is (channels, height, width).
    image = _pil_image().open(source)
    try:
        array = numpy.asarray(image, dtype=dtype)
    finally:
        if hasattr(image, 'close'):
            image.close()
    if array.ndim == 2:
        return array[numpy.newaxis]
    return array.transpose(2, 0, 1)


def _read_list(path, pairs):
    # Lines "path" or "path label" of a list file.
    entries = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            fields = line.strip().split()
            if not fields:
                continue
            if not pairs:
                entries.append(line.strip())
                continue
            if len(fields) != 2:
                raise ValueError(f'invalid format at line {n} in file {path}: expected '
                                 f'"<path> <label>", got {line.strip()!r}')
            entries.append((fields[0], int(fields[1])))
    return entries


class ImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of images read from files, as ``(channels, height, width)`` arrays.

    Args:
        paths (str or list of str): The image paths, or the path of a text
            file that lists them one per line.
        root (str): Folder the paths are relative to.
        dtype: Array dtype (``chainer.config.dtype`` by default).
    """

    def __init__(self, paths, root='.', dtype=None):
        if isinstance(paths, str):
            paths = _read_list(paths, pairs=False)
        self._paths = paths
        self._root = root
        self._dtype = chainer.get_dtype(dtype)

    def __len__(self):
        return len(self._paths)

    def get_example(self, i):
        return _read_image_as_array(os.path.join(self._root, self._paths[i]), self._dtype)


class LabeledImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of ``(image, label)`` pairs read from files.

    Args:
        pairs (str or list of tuples): ``(path, int label)`` pairs, or the path
            of a text file with lines ``<path> <label>``.
        root (str): Folder the paths are relative to.
        dtype: Image dtype (``chainer.config.dtype`` by default).
        label_dtype: Label dtype (the label is a 0-dim array).
    """

    def __init__(self, pairs, root='.', dtype=None, label_dtype=numpy.int32):
        if isinstance(pairs, str):
            pairs = _read_list(pairs, pairs=True)
        self._pairs = pairs
        self._root = root
        self._dtype = chainer.get_dtype(dtype)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        image = _read_image_as_array(os.path.join(self._root, path), self._dtype)
        return image, numpy.array(label, dtype=self._label_dtype)


class ZippedImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of the images stored in a zip archive.

    The archive is opened once per process (a forked worker reopens it) and the
    dataset can be pickled.

    Args:
        zipfilename (str): The archive.
        dtype: Array dtype (``chainer.config.dtype`` by default).
    """

    def __init__(self, zipfilename, dtype=None):
        self._zipfilename = zipfilename
        self._dtype = chainer.get_dtype(dtype)
        self._zf = None
        self._zf_pid = None
        self._lock = threading.Lock()
        with zipfile.ZipFile(zipfilename) as zf:
            self._paths = [name for name in zf.namelist() if not name.endswith('/')]

    def _zipfile(self):
        # One ZipFile per process: a handle inherited through fork shares its file
        # position with the parent.
        if self._zf is None or self._zf_pid != os.getpid():
            self._zf = zipfile.ZipFile(self._zipfilename)
            self._zf_pid = os.getpid()
        return self._zf

    def __getstate__(self):
        state = self.__dict__.copy()
        state['_zf'] = None
        state['_lock'] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def __len__(self):
        return len(self._paths)

    def read(self, path):
        """Returns the bytes of the member ``path``."""
        with self._lock:
            return self._zipfile().read(path)

    def get_example(self, i_or_filename):
        path = (i_or_filename if isinstance(i_or_filename, str)
                else self._paths[i_or_filename])
        return _read_image_as_array(io.BytesIO(self.read(path)), self._dtype)


class MultiZippedImageDataset(dataset_mixin.DatasetMixin):
    """The images of several zip archives, one archive after another.

    Args:
        zipfilenames (list of str): The archives.
        dtype: Array dtype (``chainer.config.dtype`` by default).
    """

    def __init__(self, zipfilenames, dtype=None):
        self._datasets = [ZippedImageDataset(name, dtype) for name in zipfilenames]
        self._offsets = numpy.cumsum([0] + [len(d) for d in self._datasets])

    def __len__(self):
        return int(self._offsets[-1])

    def get_example(self, i):
        if i < 0:
            i += len(self)
        if not 0 <= i < len(self):
            raise IndexError(f'MultiZippedImageDataset: index out of range ({len(self)} images)')
        d = int(numpy.searchsorted(self._offsets, i, side='right')) - 1
        return self._datasets[d][int(i - self._offsets[d])]


class LabeledZippedImageDataset(dataset_mixin.DatasetMixin):
    """Dataset of ``(image, label)`` pairs: images in a zip archive, labels in a list.

    Args:
        zipfilename (str): The archive.
        labelfilename (str): Text file with lines ``<member path> <label>``.
        dtype: Image dtype (``chainer.config.dtype`` by default).
        label_dtype: Label dtype (the label is a 0-dim array).
    """

    def __init__(self, zipfilename, labelfilename, dtype=None, label_dtype=numpy.int32):
        self._images = ZippedImageDataset(zipfilename, dtype)
        self._pairs = _read_list(labelfilename, pairs=True)
        self._label_dtype = label_dtype

    def __len__(self):
        return len(self._pairs)

    def get_example(self, i):
        path, label = self._pairs[i]
        return self._images.get_example(path), numpy.array(label, dtype=self._label_dtype)
