"""Preprocessed-dataset files of the cache: load, build, and recover from corruption."""
import os
import warnings
import zipfile

from chainer.dataset import download


class CorruptedFile(ValueError):
    """A cache file (raw download or npz) that cannot be read; the message names it."""


def dataset_path(name, filename):
    """``<root>/pfnet/chainer/<name>/<filename>`` (the folder is created)."""
    return os.path.join(download.get_dataset_directory(os.path.join('pfnet', 'chainer', name)),
                        filename)


def read_npz(load, path, keys=None):
    """Reads every array of the npz at ``path`` through ``load`` (``numpy.load``).

    Raises:
        CorruptedFile: The file cannot be read (its name is in the message).
    """
    try:
        # Opened here: NumPy leaves the file open when the archive is unreadable.
        with open(path, 'rb') as fh, load(fh) as f:
            return {k: f[k] for k in (f.files if keys is None else keys)}
    except (OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile) as e:
        raise CorruptedFile(f'{path} ({type(e).__name__}: {e})') from e


def load_or_build(name, path, create, load, raw_paths):
    """Like :func:`~chainer.dataset.cache_or_load_file`, recovering from corruption.

    ``load`` raises :class:`CorruptedFile` for an unreadable file. Such a file
    is rebuilt (with a warning) when every raw file of ``raw_paths`` is on
    disk; otherwise the error names it and tells what to do. A raw file that
    ``create`` cannot read is an error naming that file.
    """
    def checked_create(tmp_path):
        try:
            return create(tmp_path)
        except CorruptedFile as e:
            raise RuntimeError(f'the raw {name} file is corrupted: {e}; delete it so that '
                               'it is downloaded again') from None

    try:
        return download.cache_or_load_file(path, checked_create, load)
    except CorruptedFile as e:
        if raw_paths and all(os.path.exists(p) for p in raw_paths):
            warnings.warn(f'the cached file {path} cannot be read; rebuilding it from the '
                          f'raw files ({e})')
            os.remove(path)
            return download.cache_or_load_file(path, checked_create, load)
        raise RuntimeError(f'the cached {name} file {path} is corrupted ({e}); delete it so '
                           'that it is built again from the download') from None
