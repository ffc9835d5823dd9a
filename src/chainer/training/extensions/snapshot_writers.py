"""Writers: how snapshot files are written (in the loop, a thread, a process, a queue).

Every writer writes a snapshot to a temporary file in the output folder,
flushes it to disk and renames it to its final name, then syncs the folder:
a snapshot file that exists is always complete, even after a kill or a power
cut in the middle of a write. The temporaries are named
``.<filename>.<random>.tmp``; :func:`~chainer.training.extensions.snapshot`
removes stale ones when it autoloads.
"""
import multiprocessing
import os
import queue
import threading

from chainer.serializers import _files
from chainer.serializers import npz

TEMP_SUFFIX = '.tmp'


def is_temporary_of(name, prefix):
    """Whether ``name`` is a writer's temporary file for a snapshot starting with ``prefix``."""
    return name.startswith('.') and name.lstrip('.').startswith(prefix) \
        and name.endswith(TEMP_SUFFIX)


def _mp():
    # Workers get the trainer by fork, as in Chainer on Linux; spawn or
    # forkserver (Python 3.14's default) would have to pickle it, and
    # trainers hold lambdas and open files.
    if 'fork' in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context('fork')
    return multiprocessing


def _fsync_file(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class Writer:
    """Base of snapshot writers: ``writer(filename, outdir, target)`` saves ``target``."""

    def __init__(self):
        self._post_save_hooks = []

    def __call__(self, filename, outdir, target):
        raise NotImplementedError

    def __getstate__(self):
        # Threads and queues cannot go to a worker process; the hooks can.
        state = self.__dict__.copy()
        for key in ('_worker', '_queue', '_consumer'):
            state.pop(key, None)
        return state

    def finalize(self):
        """Waits for pending writes (does nothing for synchronous writers)."""

    def save(self, filename, outdir, target, savefun, **kwds):
        """Writes ``savefun(path, target, **kwds)`` to ``<outdir>/<filename>`` atomically."""
        os.makedirs(outdir, exist_ok=True)
        dest = os.path.join(outdir, filename)
        fd, tmp = _files.create_temp(os.path.dirname(dest),
                                     prefix='.' + os.path.basename(filename) + '.',
                                     suffix=TEMP_SUFFIX, replacing=dest)
        os.close(fd)
        try:
            savefun(tmp, target, **kwds)
            _fsync_file(tmp)
            os.replace(tmp, dest)
        except BaseException:
            try:
                os.remove(tmp)
            except OSError:
                pass
            raise
        _files._fsync_folder(os.path.dirname(dest))
        self._post_save()

    def _add_cleanup_hook(self, hook_fun):
        if not hasattr(self, '_post_save_hooks'):
            self._post_save_hooks = []
        self._post_save_hooks.append(hook_fun)

    def _post_save(self):
        for hook in getattr(self, '_post_save_hooks', ()):
            hook()


class SimpleWriter(Writer):
    """Writes the snapshot in the training loop (the default).

    Args:
        savefun: ``savefun(path, target, **kwds)`` (:func:`~chainer.serializers.save_npz`).
        kwds: Passed to ``savefun``.
    """

    def __init__(self, savefun=npz.save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds

    def __call__(self, filename, outdir, target):
        self.save(filename, outdir, target, self._savefun, **self._kwds)


class StandardWriter(Writer):
    """Base of writers that save in a worker (one write at a time: a new one waits)."""

    _started = False
    _finalized = False
    _worker = None

    def __init__(self, savefun=npz.save_npz, **kwds):
        super().__init__()
        self._savefun = savefun
        self._kwds = kwds
        self._started = False
        self._finalized = False

    def __call__(self, filename, outdir, target):
        if self._started:
            self._worker.join()
            self._started = False
        self._filename = filename
        self._worker = self.create_worker(filename, outdir, target, **self._kwds)
        self._worker.start()
        self._started = True

    def create_worker(self, filename, outdir, target, **kwds):
        """Returns a thread or process object that runs :meth:`save`."""
        raise NotImplementedError

    def finalize(self):
        if self._started:
            if not self._finalized:
                self._worker.join()
            self._started = False
        self._finalized = True


class ThreadWriter(StandardWriter):
    """Writes each snapshot in a new thread."""

    def create_worker(self, filename, outdir, target, **kwds):
        return threading.Thread(target=self.save,
                                args=(filename, outdir, target, self._savefun), kwargs=kwds)


class ProcessWriter(StandardWriter):
    """Writes each snapshot in a new process (the target is copied to it)."""

    def create_worker(self, filename, outdir, target, **kwds):
        return _mp().Process(target=self.save,
                             args=(filename, outdir, target, self._savefun), kwargs=kwds)


class QueueWriter(Writer):
    """Base of writers that pass snapshots to one long-lived consumer through a queue.

    Args:
        savefun: Save function of the default task.
        task: Callable ``task(filename, outdir, target)`` run by the consumer
            (a :class:`SimpleWriter` of ``savefun`` by default).
    """

    _started = False
    _finalized = False
    _queue = None
    _consumer = None

    def __init__(self, savefun=npz.save_npz, task=None):
        super().__init__()
        self._task = self.create_task(savefun) if task is None else task
        self._queue = self.create_queue()
        self._consumer = self.create_consumer(self._queue)
        self._consumer.start()
        self._started = True
        self._finalized = False

    def __call__(self, filename, outdir, target):
        self._queue.put([self._task, filename, outdir, target])

    def create_task(self, savefun):
        return SimpleWriter(savefun=savefun)

    def create_queue(self):
        raise NotImplementedError

    def create_consumer(self, q):
        raise NotImplementedError

    def consume(self, q):
        """Runs the tasks put in ``q`` until it gets ``None``."""
        while True:
            task = q.get()
            if task is None:
                q.task_done()
                return
            try:
                task[0](task[1], task[2], task[3])
                self._post_save()
            finally:
                q.task_done()

    def finalize(self):
        if self._started and not self._finalized:
            self._queue.put(None)
            self._queue.join()
            self._consumer.join()
        self._started = False
        self._finalized = True


class ThreadQueueWriter(QueueWriter):
    """Writes the snapshots one after another in a consumer thread."""

    def create_queue(self):
        return queue.Queue()

    def create_consumer(self, q):
        return threading.Thread(target=self.consume, args=(q,))


class ProcessQueueWriter(QueueWriter):
    """Writes the snapshots one after another in a consumer process."""

    def create_queue(self):
        return _mp().JoinableQueue()

    def create_consumer(self, q):
        return _mp().Process(target=self.consume, args=(q,))
