"""The dataset cache: where downloads and preprocessed files are kept.

Layout (Chainer's, so an existing ``~/.chainer/dataset`` is reused)::

    <root>/_dl_cache/<md5 of the URL>      raw downloads (cached_download)
    <root>/pfnet/chainer/<name>/*.npz      preprocessed datasets

The root is ``$CHAINER_DATASET_ROOT`` or ``~/.chainer/dataset``. Every file is
written to a temporary name in its destination folder and renamed, so an
interrupted download or conversion never leaves a partial file behind.
"""
import hashlib
import os
import shutil
import tempfile

_dataset_root = os.environ.get(
    'CHAINER_DATASET_ROOT', os.path.join(os.path.expanduser('~'), '.chainer', 'dataset'))


def get_dataset_root():
    """Returns the root folder of the dataset cache."""
    return _dataset_root


def set_dataset_root(path):
    """Sets the root folder of the dataset cache (for this process).

    Args:
        path (str): The new root.
    """
    global _dataset_root
    _dataset_root = path


def get_dataset_directory(dataset_name, create_directory=True):
    """Returns the cache folder of a dataset, ``<root>/<dataset_name>``.

    Args:
        dataset_name (str): Name relative to the root, e.g. ``'pfnet/chainer/mnist'``.
        create_directory (bool): Create the folder if it does not exist.

    Returns:
        str: The folder's path.
    """
    path = os.path.join(_dataset_root, dataset_name)
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


def _cache_path(url):
    return os.path.join(_dataset_root, '_dl_cache',
                        hashlib.md5(url.encode('utf-8')).hexdigest())


def _atomic_write(path, write):
    # `write(tmp_path)` fills a temporary file beside `path`; it is then renamed
    # into place, so readers see either nothing or the whole file.
    directory = os.path.dirname(path) or '.'
    os.makedirs(directory, exist_ok=True)
    from chainer.serializers import _files
    fd, tmp = _files.create_temp(directory, replacing=path)  # the mode open() would give
    os.close(fd)
    try:
        result = write(tmp)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise
    return result


def cached_download(url):
    """Downloads ``url`` into the cache (once) and returns the cached file's path.

    Args:
        url (str): The URL.

    Returns:
        str: ``<root>/_dl_cache/<md5 of url>``.

    Raises:
        RuntimeError: The file is not cached and cannot be downloaded; the message
            names the URL and the exact path where a copy of it can be placed.
    """
    path = _cache_path(url)
    if os.path.exists(path):
        return path

    def fetch(tmp):
        import urllib.request  # only when a download happens (it is slow to import)
        print(f'Downloading from {url}...')
        try:
            with urllib.request.urlopen(url) as response, open(tmp, 'wb') as f:
                shutil.copyfileobj(response, f)
        except OSError as e:
            raise RuntimeError(
                f'cached_download: could not download {url} ({type(e).__name__}: {e}). '
                f'If this machine is offline, download the file elsewhere and place it '
                f'at {path}') from e

    _atomic_write(path, fetch)
    return path


def cache_or_load_file(path, creator, loader):
    """Loads a cached file, or creates it first.

    If ``path`` exists, returns ``loader(path)``. Otherwise ``creator(tmp_path)``
    writes the file to a temporary path, which is then renamed to ``path``, and
    the creator's return value is returned.

    Args:
        path (str): The cached file.
        creator: ``creator(path)`` writes the file and returns its content.
        loader: ``loader(path)`` reads the file and returns its content.

    Returns:
        What ``loader`` or ``creator`` returned.
    """
    if os.path.exists(path):
        return loader(path)
    # The creator may be picky about the name (numpy.savez appends '.npz' to
    # other names), so it writes under the final base name in a private folder
    # next to the destination; the file is then renamed into place.
    directory = os.path.dirname(path) or '.'
    os.makedirs(directory, exist_ok=True)
    tmp_dir = tempfile.mkdtemp(prefix='.tmp-', dir=directory)
    try:
        tmp = os.path.join(tmp_dir, os.path.basename(path))
        content = creator(tmp)
        os.replace(tmp, path)
    finally:
        shutil.rmtree(tmp_dir, ignore_errors=True)
    return content
