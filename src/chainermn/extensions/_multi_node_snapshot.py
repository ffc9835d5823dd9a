"""multi_node_snapshot: snapshots written by one process per group of replicas."""
import numpy

from chainer.serializers import npz
from chainer.training import extension


def _parse_replica_sets(replica_sets, size):
    """The groups of processes holding the same state, as a list of sets of ranks.

    Each item of ``replica_sets`` is a rank (a group of its own) or an iterable of ranks;
    the ranks no item names form one more group.
    """
    sets = []
    seen = set()
    for item in replica_sets:
        group = {item} if isinstance(item, (int, numpy.integer)) else set(item)
        for rank in group:
            if isinstance(rank, bool) or not isinstance(rank, (int, numpy.integer)):
                raise TypeError(f'multi_node_snapshot: replica_sets must hold ranks (ints) '
                                f'or sets of ranks, got {rank!r}')
            if not 0 <= rank < size:
                raise ValueError(f'multi_node_snapshot: rank {rank} of replica_sets is '
                                 f'outside [0, {size}) (the communicator size)')
            if rank in seen:
                raise ValueError(f'multi_node_snapshot: rank {rank} is in more than one set '
                                 'of replica_sets')
        seen |= group
        if group:
            sets.append(group)
    rest = set(range(size)) - seen
    if rest:
        sets.append(rest)
    return sets


class _MultiNodeSnapshot(extension.Extension):
    """Runs a snapshot extension on the master (lowest rank) of each replica set only; see
    :func:`multi_node_snapshot`."""

    def __init__(self, comm, snapshot, replica_sets):
        self.comm = comm
        self.snapshot = snapshot
        # Each process's files carry its rank, so that masters do not overwrite each other.
        if callable(snapshot.filename):
            base = snapshot.filename

            def filename(trainer):
                return f'{base(trainer)}.{comm.rank}'
            snapshot.filename = filename
        else:
            snapshot.filename = f'{snapshot.filename}.{comm.rank}'
        for group in _parse_replica_sets(replica_sets, comm.size):
            if comm.rank in group:
                self.replica_set = group
                self.master = min(group)
                break

    @property
    def is_master(self):
        """Whether this process writes the snapshots of its replica set."""
        return self.master == self.comm.rank

    def initialize(self, trainer):
        if self.is_master:
            self.snapshot.initialize(trainer)
        if not getattr(self.snapshot, 'autoload', False):
            return
        # The master has loaded its newest snapshot (if any): its replicas take its state.
        target = getattr(self.snapshot, '_target', None)
        target = trainer if target is None else target
        if self.is_master:
            state = {}
            target.serialize(npz.DictionarySerializer(state))
            for rank in sorted(self.replica_set - {self.master}):
                self.comm.send_obj(state, dest=rank, tag=0)
        else:
            state = self.comm.recv_obj(self.master, tag=0)
            target.serialize(npz.NpzDeserializer(state))

    def on_error(self, trainer, e, t):
        if self.is_master:
            self.snapshot.on_error(trainer, e, t)

    def __call__(self, trainer):
        if self.is_master:
            self.snapshot(trainer)

    def finalize(self):
        if self.is_master:
            self.snapshot.finalize()


def multi_node_snapshot(comm, snapshot, replica_sets):
    """Makes a snapshot extension write once per group of processes that hold the same state.

    In data-parallel training all processes hold the same model, so one file suffices: the
    processes are split into *replica sets*, and only the lowest rank of each (its master)
    runs ``snapshot``. File names get ``.<rank>`` appended. With ``autoload``, the master
    loads its newest snapshot and sends the state to the other processes of its set.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        snapshot: A snapshot extension (:func:`~chainer.training.extensions.snapshot`).
        replica_sets: Groups of ranks holding the same state: a list of ranks (a group each)
            and iterables of ranks; the ranks not named form one more group (``[]``: all
            processes are replicas of rank 0).

    Returns:
        The extension (give it the trigger of the snapshot in ``trainer.extend``).
    """
    return _MultiNodeSnapshot(comm, snapshot, replica_sets)
