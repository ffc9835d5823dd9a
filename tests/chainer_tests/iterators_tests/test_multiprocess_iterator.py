import copy
import os
import pickle
import subprocess
import sys
import textwrap
import time
import warnings

import numpy as np
import pytest

from chainer import iterators
from chainer_tests import _serializers


def _children():
    # PIDs of this process's live children (Linux).
    pid = os.getpid()
    out = []
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            try:
                with open(f'/proc/{entry}/stat') as f:
                    fields = f.read().rsplit(')', 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid and fields[0] != 'Z':
                out.append(int(entry))
    return out


def _running(pid):
    # Whether the process exists and is not a zombie.
    try:
        with open(f'/proc/{pid}/stat') as f:
            return f.read().rsplit(')', 1)[1].split()[0] != 'Z'
    except OSError:
        return False


pytestmark = pytest.mark.skipif(not os.path.isdir('/proc'), reason='needs /proc')


def _wait_no_children(before, timeout=5.):
    deadline = time.time() + timeout
    while time.time() < deadline:
        extra = set(_children()) - set(before)
        if not extra:
            return set()
        time.sleep(0.05)
    return extra


def test_workers_start_lazily_and_stop_at_finalize():
    before = _children()
    it = iterators.MultiprocessIterator(list(range(10)), 2, n_processes=2)
    assert set(_children()) == set(before)
    it.next()
    assert len(set(_children()) - set(before)) == 2
    it.finalize()
    assert _wait_no_children(before) == set()
    with pytest.raises(NotImplementedError):
        it.reset()


def test_workers_stop_when_collected_and_with_statement():
    before = _children()
    it = iterators.MultiprocessIterator(list(range(10)), 2, n_processes=2)
    it.next()
    del it
    assert _wait_no_children(before) == set()
    with iterators.MultiprocessIterator(list(range(10)), 2, n_processes=2) as it:
        it.next()
    assert _wait_no_children(before) == set()


class _Failing:
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 3:
            raise KeyError(f'bad example {i}')
        return i


def test_worker_exception_reaches_the_caller_and_no_process_leaks():
    before = _children()
    with pytest.raises(KeyError, match='bad example 3'):
        with iterators.MultiprocessIterator(_Failing(), 4, shuffle=False,
                                            n_processes=2) as it:
            it.next()
    assert _wait_no_children(before) == set()


def test_no_worker_survives_interpreter_exit(tmp_path):
    script = tmp_path / 'run.py'
    script.write_text(textwrap.dedent('''
        import os
        from chainer import iterators
        it = iterators.MultiprocessIterator(list(range(100)), 10, n_processes=2)
        it.next()
        print(' '.join(str(p.pid) for p in it._pool.processes), flush=True)
        # exits without finalize
    '''))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    pids = [int(p) for p in out.stdout.split()]
    assert len(pids) == 2
    time.sleep(0.2)
    assert not any(_running(pid) for pid in pids)


def test_pickle_and_copy_keep_the_state():
    it = iterators.MultiprocessIterator(list(range(6)), 2, n_processes=1, shuffle=False)
    it.next()
    for other in (pickle.loads(pickle.dumps(it)), copy.copy(it)):
        assert other.epoch_detail == pytest.approx(2 / 6)
        assert other.next() == [2, 3]
        other.finalize()
    assert it.next() == [2, 3]
    it.finalize()


class _Slow:
    def __len__(self):
        return 2

    def __getitem__(self, i):
        time.sleep(0.3)
        return i


def test_stalled_dataset_warns():
    it = iterators.MultiprocessIterator(_Slow(), 2, shuffle=False, n_processes=1,
                                        dataset_timeout=0.05)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        assert it.next() == [0, 1]
    assert any(issubclass(x.category, iterators.MultiprocessIterator.TimeoutWarning)
               for x in w)
    it.finalize()


def test_lambda_datasets_and_samplers_work_through_fork():
    dataset = [np.full(3, i) for i in range(4)]
    it = iterators.MultiprocessIterator(dataset, 4, n_processes=2,
                                        order_sampler=lambda order, _: order[::-1].copy())
    batch = it.next()
    assert [int(b[0]) for b in batch] == [3, 2, 1, 0]
    it.finalize()


class _Arrays:
    # Examples with arrays of several sizes, dtypes and nestings.

    def __len__(self):
        return 6

    def __getitem__(self, i):
        return (np.full((4, 5), i, np.float32), {'big': np.arange(5000, dtype=np.int64) + i,
                                                 'label': i}, [np.int8(i), 'text'])


def _check(batch, indices):
    for example, i in zip(batch, indices):
        a, d, rest = example
        assert a.dtype == np.float32 and a.shape == (4, 5) and (a == i).all()
        assert d['big'].dtype == np.int64 and d['big'][0] == i and d['label'] == i
        assert rest == [i, 'text']


@pytest.mark.parametrize('shared_mem', [None, 100, 100000])
def test_shared_memory_transfers_nested_arrays(shared_mem):
    # 100 bytes: only the small array fits; 100000: both do; None: the pipe.
    shm_before = set(os.listdir('/dev/shm')) if os.path.isdir('/dev/shm') else set()
    it = iterators.MultiprocessIterator(_Arrays(), 4, shuffle=False, n_processes=2,
                                        n_prefetch=2, shared_mem=shared_mem)
    for step in range(5):  # slots are reused across batches and epochs
        batch = it.next()
        _check(batch, [(4 * step + k) % 6 for k in range(4)])
    batch[0][0][:] = -1  # the arrays returned are copies, not views of the buffer
    _check(it.next(), [2, 3, 4, 5])
    snapshot = _serializers.save(it)
    it.reset()
    _check(it.next(), [0, 1, 2, 3])
    it.finalize()
    assert it._buffer is None and snapshot['current_position'] == 0
    if os.path.isdir('/dev/shm'):
        assert set(os.listdir('/dev/shm')) - shm_before == set()


def test_shared_memory_pack_unpack_round_trip():
    from chainer.iterators import _shared_memory
    view = np.zeros(1000, np.uint8)
    example = {'a': np.arange(6, dtype=np.float64).reshape(2, 3)[:, ::2], 'b': 'x',
               'c': (np.zeros(0, np.int32), np.array(['obj'], dtype=object))}
    packed, end = _shared_memory.pack(example, view, 0, len(view))
    assert isinstance(packed['a'], _shared_memory._Placeholder) and end > 0
    assert packed['c'][1] is example['c'][1]  # object arrays take the pipe
    out = _shared_memory.unpack(packed, view)
    np.testing.assert_array_equal(out['a'], example['a'])
    assert out['b'] == 'x' and out['c'][0].shape == (0,)


class _Pid:
    def __len__(self):
        return 8

    def __getitem__(self, i):
        return os.getpid()


def test_maxtasksperchild_replaces_workers():
    it = iterators.MultiprocessIterator(_Pid(), 4, shuffle=False, n_processes=2,
                                        maxtasksperchild=4)
    pids = set()
    for _ in range(6):
        pids.update(it.next())
    assert len(pids) > 2  # workers were replaced after 4 examples each
    it.finalize()


def test_dead_worker_is_an_error_naming_it():
    it = iterators.MultiprocessIterator(_Slow(), 2, shuffle=False, n_processes=1,
                                        dataset_timeout=None)
    it.next()
    pid = it._pool.processes[0].pid
    os.kill(pid, 9)
    with pytest.raises(RuntimeError, match=f'worker process {pid} died'):
        for _ in range(3):
            it.next()
    it.finalize()


class _Big:
    def __len__(self):
        return 200000

    def __getitem__(self, i):
        return np.full(64, i, np.int32)


def test_big_tasks_and_results_do_not_deadlock():
    # Tasks of 100000 indices (far more than a pipe holds) while the workers send
    # big results back: the main process must read while it writes.
    it = iterators.MultiprocessIterator(_Big(), 100000, shuffle=False, n_processes=1,
                                        n_prefetch=2)
    for step in range(3):
        batch = it.next()
        assert len(batch) == 100000 and batch[-1][0] == (step * 100000 + 99999) % 200000
    it.finalize()


def test_workers_exit_when_the_main_process_is_killed(tmp_path):
    # SIGKILL runs no cleanup at all; the workers notice their pipes closing.
    script = tmp_path / 'killed.py'
    script.write_text(textwrap.dedent('''
        import os, signal
        from chainer import iterators
        it = iterators.MultiprocessIterator(list(range(100)), 10, n_processes=3,
                                            maxtasksperchild=5)
        for _ in range(3):
            it.next()
        print(' '.join(str(p.pid) for p in it._pool.processes), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    '''))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                         text=True, timeout=60)
    pids = [int(p) for p in out.stdout.split()]
    assert len(pids) == 3
    deadline = time.time() + 10
    alive = pids
    while alive and time.time() < deadline:
        time.sleep(0.1)
        alive = [p for p in pids if _running(p)]
    assert alive == []


class _FailingArrays:
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            raise ValueError('broken example 5')
        return np.full(10, i)


@pytest.mark.parametrize('shared_mem', [None, 1000])
def test_iterator_goes_on_after_a_worker_error(shared_mem):
    it = iterators.MultiprocessIterator(_FailingArrays(), 2, shuffle=False, n_processes=2,
                                        n_prefetch=2, shared_mem=shared_mem)
    seen = []
    for _ in range(8):
        try:
            seen.extend(int(x[0]) for x in it.next())
        except ValueError as e:
            assert 'broken example 5' in str(e)
            seen.append('error')
    assert seen.count('error') == 2  # one per epoch
    assert [x for x in seen if x != 'error'][:6] == [0, 1, 2, 3, 6, 7]
    it.finalize()
