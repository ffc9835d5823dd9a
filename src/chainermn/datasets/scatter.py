"""Splitting a dataset held by one process among all processes."""
import pickle
import warnings

import numpy

from chainer import datasets as _datasets

# Tag of the messages that carry shards, apart from tags users pick.
_SHARD_TAG = 0x4D4E


class DataSizeError(RuntimeError):
    """Raised when a dataset cannot be sent to another process."""
    pass


def _scatter_index(n_total_samples, size, force_equal_length):
    """Yields ``(rank, begin, end)``: the index range of each process.

    With ``force_equal_length``, every range has ``ceil(n / size)`` indices and neighbouring
    ranges overlap where ``n`` is not a multiple of ``size``; otherwise the ranges partition
    ``range(n)`` and the first ``n % size`` are one longer.
    """
    if force_equal_length:
        length = -(-n_total_samples // size)
        for i in range(size):
            begin = i * n_total_samples // size
            yield i, begin, begin + length
    else:
        q, r = divmod(n_total_samples, size)
        for i in range(size):
            begin = i * q + min(i, r)
            yield i, begin, begin + q + (1 if i < r else 0)


def _check_root(root, comm):
    # AssertionError is ChainerMN's type here; the message says what is wrong.
    if not 0 <= root < comm.size:
        raise AssertionError(f'root must be a rank in [0, {comm.size}), got {root}')


def scatter_index(n_total_samples, comm, root=0, *, force_equal_length=True):
    """Splits ``range(n_total_samples)`` among the processes.

    Args:
        n_total_samples (int): Number of samples (read on ``root``).
        comm (~chainermn.CommunicatorBase): The communicator.
        root (int): Rank that decides the split.
        force_equal_length (bool): Give every process the same number of indices, repeating
            a few where needed (see :func:`scatter_dataset`).

    Returns:
        tuple: ``(begin, end)`` of this process's range.
    """
    _check_root(root, comm)
    ranges = None
    if comm.rank == root:
        ranges = [(b, e) for _, b, e in
                  _scatter_index(n_total_samples, comm.size, force_equal_length)]
    return comm.mpi_comm.scatter(ranges, root=root)


def _take(dataset, index):
    """A compact dataset of ``dataset[i] for i in index``, or None if ``dataset`` is of a
    kind whose examples cannot be picked without loading them (then it is sent whole)."""
    if isinstance(dataset, numpy.ndarray):
        return dataset[index]
    if isinstance(dataset, (list, tuple)):
        return [dataset[i] for i in index.tolist()]
    if isinstance(dataset, _datasets.TupleDataset):
        parts = [_take(d, index) for d in dataset._datasets]
        return None if any(p is None for p in parts) else _datasets.TupleDataset(*parts)
    if isinstance(dataset, _datasets.DictDataset):
        parts = {k: _take(d, index) for k, d in dataset._datasets.items()}
        return (None if any(p is None for p in parts.values())
                else _datasets.DictDataset(**parts))
    if isinstance(dataset, _datasets.SubDataset):
        inner = index + dataset._start
        if dataset._order is not None:
            inner = numpy.asarray(dataset._order)[inner]
        return _take(dataset._dataset, inner)
    if isinstance(dataset, _datasets.TransformDataset):
        inner = _take(dataset._dataset, index)
        return None if inner is None else _datasets.TransformDataset(inner,
                                                                      dataset._transform)
    return None


def _shard(dataset, begin, end, order):
    index = numpy.arange(begin, end) if order is None else numpy.asarray(order[begin:end])
    taken = _take(dataset, index)
    if taken is None:
        return _datasets.SubDataset(dataset, begin, end, order)
    return _datasets.SubDataset(taken, 0, len(index))


def scatter_dataset(dataset, comm, root=0, shuffle=False, seed=None,
                    max_buf_len=256 * 1024 * 1024, *, force_equal_length=True):
    """Splits a dataset held by process ``root`` among all processes.

    The examples each process gets are those ChainerMN 7.8.1 gives for the same arguments:
    with ``shuffle``, the order is ``numpy.random.RandomState(seed).permutation(n)``, and the
    ranges are those of :func:`scatter_index`. ``root`` sends each process only its shard
    when the dataset is made of arrays, lists, tuples, ``TupleDataset``, ``DictDataset``,
    ``SubDataset`` or ``TransformDataset`` over them; other datasets (which may load their
    examples lazily, from files) are sent whole, as ChainerMN sends every dataset.

    Args:
        dataset: The dataset, on ``root``; ignored elsewhere (pass None).
        comm (~chainermn.CommunicatorBase): The communicator.
        root (int): Rank that holds the dataset.
        shuffle (bool): Shuffle the examples before splitting.
        seed (int): Seed of the shuffle (None: a fresh random order).
        max_buf_len (int): Largest MPI message, in bytes; bigger shards go in several.
        force_equal_length (bool): Give every process ``ceil(n / size)`` examples, repeating
            a few where ``n`` is not a multiple of the number of processes, so that every
            process runs the same number of iterations per epoch. If False, the shards
            partition the dataset and differ in length by at most one.

    Returns:
        ~chainer.datasets.SubDataset: This process's shard.
    """
    from chainermn.communicators import _communication_utility
    _check_root(root, comm)
    _communication_utility._check_max_buf_len(max_buf_len)
    mpi_comm = comm.mpi_comm
    if comm.rank != root:
        shard = _communication_utility._recv_pickled(mpi_comm, root, _SHARD_TAG, max_buf_len)
        if isinstance(shard, _RootFailed):
            raise shard.type(f'scatter_dataset: the root process (rank {root}) failed: '
                             f'{shard.message}')
        return shard

    mine = error = None
    try:
        n = len(dataset)
        order = numpy.random.RandomState(seed).permutation(n) if shuffle else None
        ranges = list(_scatter_index(n, comm.size, force_equal_length))
    except Exception as e:
        error, ranges = e, [(i, 0, 0) for i in range(comm.size)]
    for i, begin, end in ranges:
        if i == root:
            if error is None:
                mine = _datasets.SubDataset(dataset, begin, end, order)
            continue
        data = None
        if error is None:
            try:
                data = pickle.dumps(_shard(dataset, begin, end, order),
                                    protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as e:
                error = DataSizeError(f'scatter_dataset: the shard of rank {i} cannot be '
                                      f'pickled to send it: {e}')
                error.__cause__ = e
        if error is not None:
            # The other processes wait for their shard: tell them why none comes.
            data = pickle.dumps(_RootFailed(error))
        _communication_utility._send_pickled(data, mpi_comm, i, _SHARD_TAG, max_buf_len)
    if error is not None:
        raise error
    return mine


class _RootFailed:
    """Sent instead of a shard when the root process could not make one."""

    def __init__(self, error):
        self.type = type(error)
        self.message = str(error)


def get_n_iterations_for_one_epoch(dataset, local_batch_size, comm):
    """Iterations per epoch when every process runs ``local_batch_size`` examples of its
    ``dataset`` per iteration (deprecated: use ``(n, 'epoch')`` triggers)."""
    warnings.warn('get_n_iterations_for_one_epoch is deprecated; use standard epoch '
                  'triggers.', DeprecationWarning)
    n_total = comm.allreduce_obj(len(dataset))
    return -(-n_total // (local_batch_size * comm.size))


def get_epoch_trigger(n_epochs, dataset, local_batch_size, comm):
    """An iteration trigger for ``n_epochs`` epochs (deprecated: use ``(n, 'epoch')``)."""
    warnings.warn('get_epoch_trigger is deprecated; use standard epoch triggers.',
                  DeprecationWarning)
    n_iter = get_n_iterations_for_one_epoch(dataset, local_batch_size, comm)
    return n_epochs * n_iter, 'iteration'
