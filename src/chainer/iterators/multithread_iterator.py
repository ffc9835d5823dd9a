"""MultithreadIterator: reads the examples of a batch in worker threads."""
from multiprocessing import pool as _mp_pool

from chainer.iterators import _base
from chainer.iterators import order_samplers


class MultithreadIterator(_base._PrefetchingIterator):
    """Like :class:`SerialIterator`, but examples are read by ``n_threads`` threads,
    and the next batch is read while the current one is used.

    Threads help when reading an example waits on I/O (files, decoding done by
    libraries that release the GIL).

    Args:
        dataset: A dataset.
        batch_size (int): Number of examples per batch.
        repeat (bool): Loop forever, or stop after one epoch.
        shuffle (bool): Visit the examples in a new random order each epoch
            (``None``: ``True`` unless ``order_sampler`` is given).
        n_threads (int): Number of worker threads.
        order_sampler (callable): See :class:`SerialIterator`.
    """

    _order_key = '_order'
    _none_order_saved = True
    # Chainer 7.8.1 reads one batch ahead (and draws the next epoch's order then).
    _n_prefetch = 0

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None, n_threads=1,
                 order_sampler=None):
        self.n_threads = n_threads
        self._init_common(dataset, batch_size, repeat,
                          order_samplers._resolve(shuffle, order_sampler))

    def reset(self):
        self._reset_state()

    def _fetch_async(self, indices):
        if self._pool is None:
            self._pool = _mp_pool.ThreadPool(self.n_threads)
        dataset = self.dataset
        return self._pool.map_async(dataset.__getitem__, [int(i) for i in indices])

    def finalize(self):
        """Stops the worker threads."""
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.terminate()
            pool.join()
