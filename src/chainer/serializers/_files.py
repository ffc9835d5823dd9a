"""File handling shared by the serializers: atomic writes and safe ``.npz`` reading."""
import contextlib
import errno
import io
import os
import pickle
import secrets
import stat
import zipfile

import numpy
from numpy.lib import format as npy_format


@contextlib.contextmanager
def atomic_open(path, mode='wb'):
    """Opens a temporary file beside ``path`` that replaces it when the block ends.

    The data is flushed and fsynced before the rename, and the folder after it,
    so that after a crash ``path`` holds either the old or the new complete
    file. On an exception the temporary file is removed and ``path`` is kept.
    """
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = create_temp(folder, prefix='.' + os.path.basename(path) + '.', suffix='.tmp',
                          replacing=path)
    try:
        with os.fdopen(fd, mode) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
    _fsync_folder(folder)


def create_temp(folder, prefix='.tmp-', suffix='', replacing=None):
    """Creates a new empty file with a unique name in ``folder``; returns ``(fd, path)``.

    Unlike :func:`tempfile.mkstemp` (always mode 0600), the file gets the
    permissions a plain ``open(replacing, 'w')`` would give: those of the file
    ``replacing`` when it exists, else the default under the process's umask. So
    a file renamed from it into place looks like one written directly.
    """
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, 'O_CLOEXEC', 0)
    for _ in range(100):
        path = os.path.join(folder, prefix + secrets.token_hex(6) + suffix)
        try:
            fd = os.open(path, flags, 0o666)
        except FileExistsError:
            continue
        if replacing is not None:
            try:
                mode = stat.S_IMODE(os.stat(replacing).st_mode)
            except OSError:
                pass  # nothing to replace (or not ours to read): the umask default
            else:
                with contextlib.suppress(OSError):
                    os.chmod(path, mode)
        return fd, path
    raise FileExistsError(f'no free temporary file name in {folder!r}')


def _fsync_folder(folder):
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# What NumPy's pickle of an object array refers to; elements must then be None.
_NUMPY_GLOBALS = {
    ('numpy.core.multiarray', '_reconstruct'),
    ('numpy._core.multiarray', '_reconstruct'),
    ('numpy', 'ndarray'),
    ('numpy', 'dtype'),
}


class _NoneOnlyUnpickler(pickle.Unpickler):
    # Rebuilds NumPy object arrays and nothing else: any other global (a class,
    # a function such as os.system) is refused before it can be called.

    def find_class(self, module, name):
        if (module, name) in _NUMPY_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(f'refused to load the global {module}.{name}')


def check_shape(key, data, value, where):
    """Raises ``ValueError`` naming the key unless ``data`` fits into ``value``'s shape.

    ``where`` completes the message (`` in 'model.npz'`` or empty). Broadcastable
    data is accepted, as ``numpy.copyto`` accepts it.
    """
    if data.shape != value.shape:
        try:
            numpy.broadcast_to(data, value.shape)
        except ValueError:
            raise ValueError(f'cannot load {key!r}{where}: the file holds shape {data.shape}, '
                             f'the destination has shape {value.shape}') from None


def describe(file):
    """How messages name ``file``: its path, or the name of a file object."""
    if isinstance(file, (str, os.PathLike)):
        return os.fspath(file)
    name = getattr(file, 'name', None)
    return name if isinstance(name, str) else '<file object>'


class CorruptedFileError(ValueError, zipfile.BadZipFile):
    """A saved file cannot be read: truncated, corrupted, or not of the expected format.

    It is a :class:`ValueError` and, as the archive errors NumPy lets through
    are, a :class:`zipfile.BadZipFile`.
    """


class UnsafeEntryError(ValueError):
    """An archive entry holds a pickled object other than ``None``."""


def _read_object_entry(fp, key, source):
    try:
        array = _NoneOnlyUnpickler(fp).load()
    except Exception as e:
        raise UnsafeEntryError(
            f'{source}: entry {key!r} holds a pickled object that is not None '
            f'({e}); rechainer only loads None from pickled entries, so that '
            f'loading a file never runs code') from None
    if (not isinstance(array, numpy.ndarray) or array.dtype != object
            or any(item is not None for item in array.flat)):
        raise UnsafeEntryError(
            f'{source}: entry {key!r} holds pickled objects other than None; '
            f'rechainer only loads None from pickled entries')
    return array


def _read_member(data, key, source):
    fp = io.BytesIO(data)
    version = npy_format.read_magic(fp)
    if version == (1, 0):
        shape, fortran, dtype = npy_format.read_array_header_1_0(fp)
    elif version == (2, 0):
        shape, fortran, dtype = npy_format.read_array_header_2_0(fp)
    else:
        fp.seek(0)
        return npy_format.read_array(fp, allow_pickle=False)
    if dtype.hasobject:
        return _read_object_entry(fp, key, source)
    fp.seek(0)
    array = npy_format.read_array(fp, allow_pickle=False)
    if array.size != int(numpy.prod(shape)):
        raise CorruptedFileError(f'{source}: entry {key!r} is truncated')
    return array


def read_npz(file):
    """Reads every array of an ``.npz`` archive into a dictionary, checking it whole.

    Raises:
        ValueError: The file is not a complete, readable archive (truncated,
            corrupted, or an entry that is not a valid array), or an entry
            holds a pickled object other than ``None``. The message names the
            file and the entry.
    """
    source = describe(file)
    if isinstance(file, (str, os.PathLike)) and not os.path.exists(file):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), source)
    arrays = {}
    key = None
    try:
        with zipfile.ZipFile(file) as zf:
            for name in zf.namelist():
                key = name[:-4] if name.endswith('.npy') else name
                data = zf.read(name)  # checks the entry's CRC
                arrays[key] = _read_member(data, key, source)
    except UnsafeEntryError:
        raise
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError, ValueError,
            KeyError) as e:
        where = f', entry {key!r}' if key is not None else ''
        raise CorruptedFileError(f'cannot read {source!r}{where}: the file is corrupted or '
                         f'truncated ({type(e).__name__}: {e})') from e
    return arrays
