"""MultiprocessIterator: reads the examples of a batch in worker processes."""
import multiprocessing
import sys
import warnings
import weakref

from chainer.iterators import _base
from chainer.iterators import _shared_memory
from chainer.iterators import _workers
from chainer.iterators import order_samplers


class _Request:
    # A batch being read: the workers' tickets and the buffer slot it is written to.
    __slots__ = ('tickets', 'slot')

    def __init__(self, tickets, slot):
        self.tickets = tickets
        self.slot = slot


def _context():
    # Forked workers inherit the dataset (and order samplers, lambdas included)
    # without pickling; other platforms spawn and pickle.
    if sys.platform != 'win32' and 'fork' in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context('fork')
    return multiprocessing.get_context()


class MultiprocessIterator(_base._PrefetchingIterator):
    """Like :class:`SerialIterator`, but examples are read by worker processes.

    The workers read the examples of the next ``n_prefetch`` batches while the
    current one is used; use it when reading an example costs CPU (decoding,
    augmentation). The workers start at the first batch and stop at
    :meth:`finalize` (also called by ``with iterator:``, when the iterator is
    garbage-collected, and at interpreter exit); they also exit by themselves
    when the main process dies, even by ``SIGKILL``.

    Args:
        dataset: A dataset; the workers receive it by ``fork`` (or pickling
            where fork is unavailable).
        batch_size (int): Number of examples per batch.
        repeat (bool): Loop forever, or stop after one epoch.
        shuffle (bool): Visit the examples in a new random order each epoch
            (``None``: ``True`` unless ``order_sampler`` is given).
        n_processes (int): Number of workers (the number of CPUs by default).
        n_prefetch (int): Number of batches read ahead.
        shared_mem (int): Bytes of shared memory per example: the arrays of an
            example that fit are passed through a buffer shared with the
            workers instead of being pickled through a pipe (arrays that do not
            fit take the pipe). ``None``: no shared memory. The buffer is
            anonymous memory freed with the processes; nothing can leak.
        order_sampler (callable): See :class:`SerialIterator`.
        dataset_timeout (float): Seconds after which a batch still being read
            gives a :class:`MultiprocessIterator.TimeoutWarning` (``None``: never).
        maxtasksperchild (int): Examples a worker reads before it is replaced.
    """

    class TimeoutWarning(RuntimeWarning):
        """Warned when reading a batch takes longer than ``dataset_timeout``."""

    _interruption_testing = False
    _finalized = False

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None, n_processes=None,
                 n_prefetch=1, shared_mem=None, order_sampler=None, dataset_timeout=30.0,
                 maxtasksperchild=None):
        self.n_processes = n_processes or multiprocessing.cpu_count()
        self.n_prefetch = max(n_prefetch, 1)
        self.shared_mem = shared_mem
        self.dataset_timeout = dataset_timeout
        self.maxtasksperchild = maxtasksperchild
        self._n_prefetch = self.n_prefetch
        self.__dict__.update(self._no_workers())
        self._init_common(dataset, batch_size, repeat,
                          order_samplers._resolve(shuffle, order_sampler))

    @staticmethod
    def _no_workers():
        # The attributes of an iterator without workers (new, finalized, or a copy).
        return {'_pool': None, '_pool_finalizer': None, '_buffer': None, '_view': None,
                '_free_slots': [], '_discarded': []}

    def _start(self):
        n_slots = self.n_prefetch + 2
        if self.shared_mem:
            self._buffer = _shared_memory.allocate(n_slots * self.batch_size * self.shared_mem)
            self._view = _shared_memory.as_bytes(self._buffer)
            self._free_slots = list(range(n_slots))
        pool = _workers.WorkerPool(_context(), self.n_processes, self.dataset, self._buffer,
                                   self.maxtasksperchild)
        # Stops the workers when the iterator is collected or at exit.
        self._pool_finalizer = weakref.finalize(self, pool.close)
        self._pool = pool

    def _take_slot(self):
        if self._buffer is None:
            return None
        if not self._free_slots and self._discarded:
            # The slot of a discarded batch comes back once its workers are done.
            request = self._discarded.pop(0)
            self._pool.finish(request.tickets)
            self._free_slots.append(request.slot)
        # (No slot left cannot happen with n_prefetch + 2 slots; the pipe would do.)
        return self._free_slots.pop() if self._free_slots else None

    def _fetch_async(self, indices):
        if self._finalized:
            raise RuntimeError('MultiprocessIterator: the iterator is finalized and '
                               'cannot read more batches')
        if self._pool is None:
            self._start()
        slot = self._take_slot()
        # One task per worker: a task per example would cost more in messages
        # than most examples cost to read.
        indices = [int(i) for i in indices]
        n = min(self.n_processes, len(indices)) or 1
        size = -(-len(indices) // n)
        tasks = []
        for k in range(0, len(indices), size):
            offset = None if slot is None else (
                (slot * self.batch_size + k) * self.shared_mem)
            tasks.append((indices[k:k + size], offset, self.shared_mem))
        return _Request(self._pool.submit(tasks), slot)

    def _wait(self, request):
        timeout = self.dataset_timeout
        if timeout is not None:
            if not self._pool.wait(request.tickets, timeout):
                warnings.warn(
                    f'Stalled dataset is detected. See the documentation of '
                    f'MultiprocessIterator for common causes and workarounds: a batch '
                    f'took more than dataset_timeout={timeout} seconds to read',
                    MultiprocessIterator.TimeoutWarning)
        try:
            chunks = self._pool.collect(request.tickets)
        except BaseException:
            if request.slot is not None:
                # Other workers of the batch may still write to its slot.
                self._discarded.append(request)
            raise
        if request.slot is None:
            return [example for chunk in chunks for example in chunk]
        batch = [_shared_memory.unpack(example, self._view)
                 for chunk in chunks for example in chunk]
        self._free_slots.append(request.slot)
        return batch

    def _discard(self, request):
        self._pool.forget(request.tickets)
        if request.slot is not None:
            self._discarded.append(request)

    def reset(self):
        if self._finalized:
            raise NotImplementedError(
                'MultiprocessIterator.reset: a finalized iterator cannot be reset; '
                'make a new one')
        self._drop_pending()
        self._reset_state()

    def finalize(self):
        """Stops the worker processes (the iterator cannot be used afterwards)."""
        if self._finalized:
            return
        self._finalized = True
        self._pending = type(self._pending)()
        finalizer = self._pool_finalizer
        # The workers go, and with them the shared buffer.
        self.__dict__.update(self._no_workers())
        if finalizer is not None:
            finalizer()

    def __copy__(self):
        # A copy has the same state and settings and its own workers.
        other = object.__new__(type(self))
        other.__dict__.update(self.__getstate__())
        return other

    def __getstate__(self):
        state = self.__dict__.copy()
        state.update(self._no_workers())
        state['_pending'] = type(self._pending)()
        state['_ahead'] = None
        # The copy requests the batches again, with the orders already drawn for them.
        state['_replay'] = type(self._pending)(self._orders_ahead())
        return state
