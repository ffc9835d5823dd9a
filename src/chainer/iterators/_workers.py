"""The worker processes of MultiprocessIterator.

Each worker has a task pipe and a result pipe of its own and handles its tasks
in order; the main process writes tasks and reads results itself, with no
helper thread. Stopping is therefore only killing and reaping the workers:
nothing in the main process can be left blocked on a pipe that a dead worker
was writing to (``multiprocessing.Pool.terminate`` can hang that way: its
result thread waits forever for the rest of a half-sent batch).
"""
import collections
import os
import pickle
import select
import signal
import struct
import sys
import time

from chainer.iterators import _shared_memory


def _fetch(dataset, view, indices, offset, region):
    if offset is None or view is None:
        return [dataset[i] for i in indices]
    out = []
    for k, i in enumerate(indices):
        start = offset + k * region
        out.append(_shared_memory.pack(dataset[i], view, start, start + region)[0])
    return out


def _worker_main(dataset, buffer, tasks, results, parent_ends):
    # The main process's ends of the pipes (ours and the other workers'), copied
    # by fork, are closed: when the main process dies, even by SIGKILL, our task
    # pipe then reads as EOF and we exit.
    for conn in parent_ends:
        conn.close()
    # Ctrl-C is for the main process: it finalizes the iterator, which stops us.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    view = None if buffer is None else _shared_memory.as_bytes(buffer)
    while True:
        try:
            task = tasks.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        task_id, indices, offset, region = task
        try:
            message = (task_id, True, _fetch(dataset, view, indices, offset, region))
        except Exception as e:
            message = (task_id, False, e)
        try:
            try:
                results.send(message)
            except (pickle.PicklingError, TypeError, AttributeError) as e:
                # The examples (or the exception) cannot be pickled: say so instead.
                results.send((task_id, False, RuntimeError(
                    f'MultiprocessIterator: a worker could not send examples {indices} '
                    f'back ({type(e).__name__}: {e})')))
        except (BrokenPipeError, OSError):
            return


class _Worker:

    def __init__(self, ctx, dataset, buffer, others):
        task_r, self.task_w = ctx.Pipe(duplex=False)
        self.res_r, res_w = ctx.Pipe(duplex=False)
        parent_ends = [self.task_w, self.res_r]
        for other in others:
            parent_ends += [other.task_w, other.res_r]
        self.process = ctx.Process(target=_worker_main,
                                   args=(dataset, buffer, task_r, res_w, parent_ends),
                                   daemon=True)
        self.process.start()
        # Only the worker keeps its ends: a dead worker then reads as EOF here.
        task_r.close()
        res_w.close()
        self.outstanding = collections.deque()  # task ids sent, in order
        self.examples = 0  # examples sent (for maxtasksperchild)

    def stop(self):
        for conn in (self.task_w, self.res_r):
            conn.close()
        process = self.process
        if process.is_alive():
            process.terminate()
        process.join(1.)
        if process.is_alive():
            process.kill()
            process.join()


class WorkerPool:
    """``n`` worker processes reading examples of ``dataset``.

    Args:
        ctx: The multiprocessing context (fork where available).
        n (int): Number of workers.
        dataset: The dataset (inherited by fork, or pickled).
        buffer: The shared buffer the workers write arrays to, or ``None``.
        max_examples (int): Examples a worker reads before it is replaced, or
            ``None``.
    """

    def __init__(self, ctx, n, dataset, buffer, max_examples):
        self._ctx, self._dataset, self._buffer = ctx, dataset, buffer
        self._max_examples = max_examples
        self._workers = []
        for _ in range(n):
            self._workers.append(_Worker(ctx, dataset, buffer, self._workers))
        self._next_worker = 0
        self._next_task = 0
        self._results = {}  # task id -> (ok, payload), received but not collected
        self._dropped = set()  # task ids whose results are to be thrown away

    @property
    def processes(self):
        return [w.process for w in self._workers]

    # -- sending ------------------------------------------------------------
    def submit(self, chunks):
        """Sends ``(indices, offset, region)`` chunks; returns their tickets."""
        tickets = []
        for indices, offset, region in chunks:
            w = self._pick_worker()
            task_id = self._next_task
            self._next_task += 1
            worker = self._workers[w]
            worker.outstanding.append(task_id)
            worker.examples += len(indices)
            self._send(w, (task_id, indices, offset, region))
            tickets.append((w, task_id))
        return tickets

    def _retiring(self, worker):
        return self._max_examples is not None and worker.examples >= self._max_examples

    def _pick_worker(self):
        n = len(self._workers)
        while True:
            for k in range(n):
                w = (self._next_worker + k) % n
                worker = self._workers[w]
                if self._retiring(worker) and not worker.outstanding:
                    worker.stop()
                    others = [o for o in self._workers if o is not worker]
                    worker = self._workers[w] = _Worker(self._ctx, self._dataset,
                                                        self._buffer, others)
                if not self._retiring(worker):
                    self._next_worker = (w + 1) % n
                    return w
            # Every worker has reached its quota: let one finish its tasks.
            busiest = min(range(n), key=lambda w: len(self._workers[w].outstanding))
            self._receive(busiest)

    def _send(self, w, task):
        worker = self._workers[w]
        if sys.platform == 'win32':
            worker.task_w.send(task)
            return
        # Written in pieces, reading results in between, so that a big task and a
        # worker blocked on sending us a big result cannot wait for each other.
        data = pickle.dumps(task, protocol=pickle.HIGHEST_PROTOCOL)
        view = memoryview(struct.pack('!i', len(data)) + data)
        fd = worker.task_w.fileno()
        while view:
            readable, writable, _ = select.select([worker.res_r], [fd], [])
            if writable:
                view = view[os.write(fd, view[:select.PIPE_BUF]):]
            elif readable:
                self._receive(w)

    # -- receiving ----------------------------------------------------------
    def _receive(self, w):
        worker = self._workers[w]
        try:
            task_id, ok, payload = worker.res_r.recv()
        except (EOFError, OSError):
            code = worker.process.exitcode
            raise RuntimeError(
                f'MultiprocessIterator: worker process {worker.process.pid} died '
                f'(exit code {code}) while reading examples') from None
        worker.outstanding.popleft()
        if task_id in self._dropped:
            self._dropped.discard(task_id)
        else:
            self._results[task_id] = (ok, payload)

    def wait(self, tickets, timeout):
        """Waits up to ``timeout`` seconds for the tickets; returns whether all came."""
        deadline = time.monotonic() + timeout
        for w, task_id in tickets:
            while task_id in self._workers[w].outstanding:
                left = deadline - time.monotonic()
                if left <= 0 or not self._workers[w].res_r.poll(left):
                    return False
                self._receive(w)
        return True

    def collect(self, tickets):
        """Returns the results of the tickets (in order), raising a worker's error."""
        out = []
        for k, (w, task_id) in enumerate(tickets):
            while task_id not in self._results:
                self._receive(w)
            ok, payload = self._results.pop(task_id)
            if not ok:
                self.forget(tickets[k + 1:])
                raise payload
            out.append(payload)
        return out

    def forget(self, tickets):
        """Throws the tickets' results away (received now or later)."""
        for w, task_id in tickets:
            if task_id in self._workers[w].outstanding:
                self._dropped.add(task_id)
            else:
                self._results.pop(task_id, None)

    def finish(self, tickets):
        """Waits until the workers are done with the tickets (results not needed)."""
        for w, task_id in tickets:
            while task_id in self._workers[w].outstanding:
                self._receive(w)

    def close(self):
        """Stops every worker."""
        workers, self._workers = self._workers, []
        for worker in workers:
            worker.stop()
