"""create_multi_node_checkpointer: per-process checkpoints to resume a multi-process run."""
import os
import re
import time

from chainer import serializers
from chainer.training import extension


class _CheckpointStats:
    """Durations of the checkpoints taken so far."""

    def __init__(self):
        self.timings = []
        self._begin = None

    def start(self):
        self._begin = time.perf_counter()

    def end(self):
        self.timings.append(time.perf_counter() - self._begin)
        self._begin = None

    def report(self):
        if not self.timings:
            return 'No checkpoint has been taken'
        return (f'Snapshot duration stats (sec): avg={sum(self.timings) / len(self.timings):f}, '
                f'min={min(self.timings):f}, max={max(self.timings):f}')


def _maybe_makedirs(path):
    os.makedirs(path, exist_ok=True)


def _save(path, filename, target):
    # save_npz writes to a temporary file, fsyncs it, renames it and fsyncs the folder: a
    # checkpoint that exists is complete, even after a kill in the middle of a write.
    _maybe_makedirs(path)
    serializers.save_npz(os.path.join(path, filename), target)


def _load(path, filename, target):
    # All or nothing: a file that cannot be read leaves the target unchanged.
    serializers.load_npz(os.path.join(path, filename), target)


def _mark_synchronized(trainer, optimizer):
    # Every process loaded the same iteration, so the models are equal already: the next
    # update of a multi-node optimizer is a normal one, not a broadcast of rank 0's
    # parameters (which would skip a step and make the resumed run differ).
    from chainermn import optimizers
    candidates = list(getattr(trainer.updater, 'get_all_optimizers', dict)().values())
    if optimizer is not None:
        candidates.append(optimizer)
    for opt in candidates:
        if isinstance(opt, optimizers._MultiNodeOptimizer):
            opt.is_changed(opt.target)


class _MultiNodeCheckpointer(extension.Extension):
    """Writes this process's checkpoints and finds the ones to resume from; see
    :func:`create_multi_node_checkpointer`."""

    def __init__(self, name, comm, cp_interval, gc_interval, path):
        self.name = name
        self.comm = comm
        self.cp_interval = cp_interval
        self.gc_interval = gc_interval
        self.path = path
        self.files = []
        self.stats = _CheckpointStats()
        self._n_saved = 0
        self._failed = False
        self._pattern = re.compile(rf'^{re.escape(name)}\.(\d+)\.(\d+)$')

    def __call__(self, trainer):
        if self.path is None:
            self.path = trainer.out
        self.save(trainer, trainer.updater.iteration)

    def save(self, target, iteration):
        """Writes the checkpoint of ``iteration`` (every process calls this together: every
        ``gc_interval`` checkpoints the processes agree on which old ones to remove)."""
        if self.path is None:
            raise RuntimeError('create_multi_node_checkpointer: no path to save to; give '
                               'one, or let the trainer call the extension (trainer.out)')
        self.stats.start()
        filename = self._filename(iteration)
        _save(self.path, filename, target)
        if filename not in self.files:
            self.files.append(filename)
        self.stats.end()
        self._n_saved += 1
        if self.gc_interval > 0 and self._n_saved % self.gc_interval == 0:
            self._sync_file_list(remove_remainder=True)

    def _filename(self, iteration):
        return f'{self.name}.{self.comm.rank}.{iteration}'

    def _filenames(self, iterations):
        return [self._filename(i) for i in iterations]

    def _parse_filename(self, filename):
        """``(name, rank, iteration)`` of a checkpoint file name, or ``None``."""
        m = self._pattern.match(filename)
        if m is None:
            return None
        return self.name, int(m.group(1)), int(m.group(2))

    def _parse_filenames(self, filenames):
        return [self._parse_filename(f) for f in filenames]

    def _local_iterations(self):
        try:
            names = os.listdir(self.path)
        except OSError:
            return []
        return sorted(parsed[2] for parsed in self._parse_filenames(names)
                      if parsed is not None and parsed[1] == self.comm.rank)

    def _common_iterations(self, local):
        # The iterations whose checkpoint every process has (a collective).
        everyone = self.comm.bcast_obj(self.comm.gather_obj(local))
        common = set(everyone[0])
        for its in everyone[1:]:
            common &= set(its)
        return sorted(common)

    def _remove(self, iterations):
        for it in iterations:
            filename = self._filename(it)
            try:
                os.remove(os.path.join(self.path, filename))
            except OSError:
                pass
            if filename in self.files:
                self.files.remove(filename)

    def _sync_file_list(self, remove_remainder=False):
        """Agrees with the other processes on the checkpoints all of them have; with
        ``remove_remainder``, removes this process's older checkpoints beyond the newest
        ``cp_interval`` common ones. Returns the common iterations."""
        local = self._local_iterations()
        common = self._common_iterations(local)
        if remove_remainder and common:
            keep = set(common[-max(self.cp_interval, 1):])
            newest = max(keep)
            self._remove([it for it in local if it < newest and it not in keep])
        return common

    def maybe_load(self, trainer, optimizer=None, path=None):
        """Resumes from the newest checkpoint that every process has, if there is one.

        Every process calls this together, before ``trainer.run()``. Each loads its own
        file of that iteration into ``trainer``; if one cannot be read anywhere, all of
        them try the next older one. This process's checkpoints newer than the one loaded
        (left by the interrupted run, ahead of some other process) are removed.

        Args:
            trainer (~chainer.training.Trainer): The trainer to load into.
            optimizer: The multi-node optimizer, if the trainer's updater does not hold it;
                after a resume, its next update is a normal one (the processes are equal
                already), not a broadcast of rank 0's parameters.
            path (str): Folder of the checkpoints (default: the one given at creation, or
                ``trainer.out``).

        Returns:
            int: The iteration resumed from, or ``None``.
        """
        if path is not None:
            self.path = path
        elif self.path is None:
            self.path = trainer.out
        self._remove_temporaries()
        local = self._local_iterations()
        resumed = None
        for it in reversed(self._common_iterations(local)):
            try:
                _load(self.path, self._filename(it), trainer)
                failed = 0
            except Exception:
                failed = 1
            if self.comm.allreduce_obj(failed) == 0:
                resumed = it
                break
        self._remove([it for it in local if resumed is None or it > resumed])
        self.files = self._filenames(it for it in self._local_iterations())
        if resumed is not None:
            _mark_synchronized(trainer, optimizer)
        return resumed

    def _remove_temporaries(self):
        prefix = f'.{self.name}.{self.comm.rank}.'
        try:
            names = os.listdir(self.path)
        except OSError:
            return
        for name in names:
            if name.startswith(prefix) and name.endswith('.tmp'):
                try:
                    os.remove(os.path.join(self.path, name))
                except OSError:
                    pass

    def get_stats(self):
        """A line with the mean, min and max duration of the checkpoints taken."""
        return self.stats.report()

    def on_error(self, trainer, exc, tb):
        self._failed = True

    def finalize(self):
        """Removes this process's checkpoints once training has ended normally (they are
        kept when it failed, to resume from)."""
        if not self._failed and self.path is not None:
            self._remove(self._local_iterations())


def create_multi_node_checkpointer(name, comm, cp_interval=5, gc_interval=5, path=None):
    """Creates a trainer extension that checkpoints every process, to resume after a failure.

    Each process writes its own checkpoint of the trainer (model, optimizer, iterator,
    extensions) as ``<path>/<name>.<rank>.<iteration>``, atomically and fsynced. Before
    training, :meth:`maybe_load` resumes every process from the newest iteration that all of
    them have a checkpoint of, so a run killed while some processes had written a checkpoint
    and others had not resumes consistently. Old checkpoints are removed as training goes on
    (the newest ``cp_interval`` common ones are kept), and all of them once training ends
    normally.

    Usage::

        checkpointer = chainermn.create_multi_node_checkpointer('mnist', comm)
        checkpointer.maybe_load(trainer, optimizer)
        trainer.extend(checkpointer, trigger=(1000, 'iteration'))

    Args:
        name (str): Name of this run's checkpoints (unique in the folder).
        comm (~chainermn.CommunicatorBase): The communicator.
        cp_interval (int): Number of common checkpoints to keep.
        gc_interval (int): Number of checkpoints between two removals of old ones.
        path (str): Folder of the checkpoints (default: ``trainer.out``).

    Returns:
        The checkpointer extension (every process must run it at the same iterations).
    """
    return _MultiNodeCheckpointer(name, comm, cp_interval, gc_interval, path)
