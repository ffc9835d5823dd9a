"""The snapshot extensions: save the trainer (or any object) and resume from it."""
import os
import re
import warnings

from chainer.serializers import npz
from chainer.training import extension
from chainer.training.extensions import snapshot_writers


def _always_true():
    return True


def _template_parts(fmt):
    # 'snapshot_iter_{.updater.iteration}' -> ('snapshot_iter_', '') : names
    # of snapshots are the text outside the replacement fields.
    if callable(fmt):
        return None
    return fmt.split('{')[0], fmt.split('}')[-1]


def _find_snapshot_files(fmt, path):
    """Returns ``(mtime_ns, name)`` of the snapshot files in ``path``, oldest first."""
    parts = _template_parts(fmt)
    if parts is None or not os.path.isdir(path):
        return []
    prefix, suffix = parts
    found = []
    for name in os.listdir(path):
        if name.startswith(prefix) and name.endswith(suffix) and not name.startswith('.'):
            full = os.path.join(path, name)
            if os.path.isfile(full):
                found.append((os.stat(full).st_mtime_ns, _natural_key(name), name))
    found.sort()
    return [(t, name) for t, _, name in found]


def _natural_key(name):
    return [int(part) if part.isdigit() else part for part in re.split(r'(\d+)', name)]


def _find_latest_snapshot(fmt, path):
    """Returns the name of the newest snapshot file in ``path`` (or ``None``)."""
    files = _find_snapshot_files(fmt, path)
    return files[-1][1] if files else None


def _find_stale_snapshots(fmt, path, n_retains, **kwargs):
    """Yields the names of the snapshots beyond the ``n_retains`` newest ones."""
    files = _find_snapshot_files(fmt, path)
    if n_retains < 0:
        return iter(())
    return (name for _, name in files[:max(len(files) - n_retains, 0)])


def _remove_stale_temporaries(fmt, path):
    parts = _template_parts(fmt)
    if parts is None or not os.path.isdir(path):
        return
    for name in os.listdir(path):
        if snapshot_writers.is_temporary_of(name, parts[0]):
            try:
                os.remove(os.path.join(path, name))
            except OSError:
                pass


def _loader_of(writer):
    savefun = getattr(writer, '_savefun', None)
    if savefun is None:
        savefun = getattr(getattr(writer, '_task', None), '_savefun', None)
    if savefun is not None and getattr(savefun, '__name__', '') == 'save_hdf5':
        from chainer.serializers import hdf5
        return hdf5.load_hdf5
    return npz.load_npz


class _Snapshot(extension.Extension):
    """Writes snapshots of a target and, with ``autoload``, resumes from the newest one.

    See :func:`snapshot` for the arguments.
    """

    trigger = 1, 'epoch'
    priority = -100

    def __init__(self, target=None, condition=None, writer=None,
                 filename='snapshot_iter_{.updater.iteration}', snapshot_on_error=False,
                 n_retains=-1, autoload=False, **kwargs):
        if kwargs:
            raise TypeError(f'snapshot() got unexpected keyword argument(s) '
                            f'{", ".join(map(repr, kwargs))}')
        self._target = target
        self.filename = filename
        self.condition = _always_true if condition is None else condition
        self.writer = snapshot_writers.SimpleWriter() if writer is None else writer
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload
        # The trainer initializes autoloading snapshots before the other
        # extensions, so that they start from the loaded state.
        self._initialize_first = autoload

    def initialize(self, trainer):
        target = trainer if self._target is None else self._target
        outdir = trainer.out
        if self.autoload:
            _remove_stale_temporaries(self.filename, outdir)
            self._autoload(target, outdir)
        if self.n_retains > 0:
            self.writer._add_cleanup_hook(_Cleanup(self.filename, outdir, self.n_retains))

    def _autoload(self, target, outdir):
        load = _loader_of(self.writer)
        for _, name in reversed(_find_snapshot_files(self.filename, outdir)):
            path = os.path.join(outdir, name)
            try:
                load(path, target)
            except Exception as e:
                warnings.warn(f'snapshot(autoload=True): skipped the snapshot {path!r}, which '
                              f'cannot be loaded ({type(e).__name__}: {e}); trying an older '
                              f'one')
                continue
            return path
        return None

    def on_error(self, trainer, exc, tb):
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer):
        if self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer):
        target = trainer if self._target is None else self._target
        filename = self.filename
        filename = filename(trainer) if callable(filename) else filename.format(trainer)
        self.writer(filename, trainer.out, target)

    def finalize(self):
        self.writer.finalize()


class _Cleanup:
    # A picklable post-save hook (process writers run it in the worker).

    def __init__(self, fmt, outdir, n_retains):
        self.fmt, self.outdir, self.n_retains = fmt, outdir, n_retains

    def __call__(self):
        for name in _find_stale_snapshots(self.fmt, self.outdir, self.n_retains):
            try:
                os.remove(os.path.join(self.outdir, name))
            except OSError:
                pass


def snapshot(savefun=None, filename='snapshot_iter_{.updater.iteration}', **kwargs):
    """Returns an extension that saves the trainer (or ``target``) to a file.

    The file name is ``filename.format(trainer)`` (or ``filename(trainer)``
    when callable). Snapshots are written atomically: a temporary file in
    the output folder, fsynced, renamed, and the folder fsynced, so a file
    named like a snapshot is never truncated.

    Args:
        savefun: ``savefun(path, target)`` (:func:`~chainer.serializers.save_npz`);
            not together with ``writer``.
        filename (str or callable): Template of the file names.
        target: Object to save (the trainer when ``None``).
        condition: Callable; a snapshot is taken only when it returns ``True``.
        writer: A writer of :mod:`~chainer.training.extensions.snapshot_writers`.
        snapshot_on_error (bool): Also write one when the training fails.
        n_retains (int): Keep only this many newest snapshots (all when negative).
        autoload (bool): At the start, load the newest snapshot of ``trainer.out``
            matching ``filename``. A snapshot that cannot be loaded is skipped
            with a warning naming it, and the next older one is tried; the
            writers' stale temporary files are removed first.

    Returns:
        The snapshot extension (trigger ``(1, 'epoch')``, priority -100).
    """
    writer = kwargs.get('writer')
    if savefun is not None:
        if writer is not None:
            raise TypeError('snapshot: savefun and writer cannot be given together; pass '
                            'the savefun to the writer')
        kwargs['writer'] = snapshot_writers.SimpleWriter(savefun=savefun)
    return _Snapshot(filename=filename, **kwargs)


def snapshot_object(target, filename, savefun=None, **kwargs):
    """Returns an extension that saves ``target`` (a link, an optimizer...) to a file.

    Same as :func:`snapshot` with ``target`` given; ``filename`` is formatted
    with the trainer (``'model_iter_{.updater.iteration}'``).
    """
    return snapshot(target=target, filename=filename, savefun=savefun, **kwargs)
