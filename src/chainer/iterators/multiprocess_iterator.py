"""MultiprocessIterator: reads the examples of a batch in worker processes."""
import copy
import multiprocessing
import signal
import sys
import warnings
import weakref

from chainer.iterators import _base
from chainer.iterators import order_samplers

# The dataset of this worker process (set by the pool's initializer).
_worker_dataset = None


def _init_worker(dataset):
    global _worker_dataset
    _worker_dataset = dataset
    # Ctrl-C is for the main process: it finalizes the iterator, which stops us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _fetch_examples(indices):
    dataset = _worker_dataset
    return [dataset[i] for i in indices]


def _stop_pool(pool):
    pool.terminate()
    pool.join()


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
    garbage-collected, and at interpreter exit); a worker never outlives its
    iterator's process.

    Args:
        dataset: A dataset; the workers receive it by ``fork`` (or pickling
            where fork is unavailable).
        batch_size (int): Number of examples per batch.
        repeat (bool): Loop forever, or stop after one epoch.
        shuffle (bool): Visit the examples in a new random order each epoch
            (``None``: ``True`` unless ``order_sampler`` is given).
        n_processes (int): Number of workers (the number of CPUs by default).
        n_prefetch (int): Number of batches read ahead.
        shared_mem (int): Accepted for compatibility: examples come back through
            the workers' pipes, so no shared memory is allocated (nor leaked).
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
        self._pool = None
        self._pool_finalizer = None
        self._init_common(dataset, batch_size, repeat,
                          order_samplers._resolve(shuffle, order_sampler))

    def _fetch_async(self, indices):
        if self._finalized:
            raise RuntimeError('MultiprocessIterator: the iterator is finalized and '
                               'cannot read more batches')
        if self._pool is None:
            pool = _context().Pool(self.n_processes, initializer=_init_worker,
                                   initargs=(self.dataset,),
                                   maxtasksperchild=self.maxtasksperchild)
            # Stops the workers when the iterator is collected or at exit.
            self._pool_finalizer = weakref.finalize(self, _stop_pool, pool)
            self._pool = pool
        # One task per worker: a task per example would cost more in messages
        # than most examples cost to read.
        indices = [int(i) for i in indices]
        n = min(self.n_processes, len(indices)) or 1
        size = -(-len(indices) // n)
        chunks = [indices[k:k + size] for k in range(0, len(indices), size)]
        return self._pool.map_async(_fetch_examples, chunks, chunksize=1)

    def _wait(self, result):
        timeout = self.dataset_timeout
        if timeout is not None:
            result.wait(timeout)
            if not result.ready():
                warnings.warn(
                    f'Stalled dataset is detected. See the documentation of '
                    f'MultiprocessIterator for common causes and workarounds: a batch '
                    f'took more than dataset_timeout={timeout} seconds to read',
                    MultiprocessIterator.TimeoutWarning)
        return [example for chunk in result.get() for example in chunk]

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
        finalizer, self._pool_finalizer = self._pool_finalizer, None
        self._pool = None
        if finalizer is not None:
            finalizer()

    def __copy__(self):
        # A copy has the same state and settings and its own workers.
        other = object.__new__(type(self))
        other.__dict__.update(self.__getstate__())
        return other

    def __getstate__(self):
        state = self.__dict__.copy()
        state['_pool'] = None
        state['_pool_finalizer'] = None
        state['_pending'] = type(self._pending)()
        state['_ahead'] = None
        random = self._sampler_random()
        if self._pending and random is not None:
            # The copy's generator is where it was after the last batch returned.
            sampler = copy.deepcopy(self.order_sampler)
            sampler._random.set_state(self._pending[0][1])
            state['order_sampler'] = sampler
        return state
