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
        print(' '.join(str(p.pid) for p in it._pool._pool), flush=True)
        # exits without finalize
    '''))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    pids = [int(p) for p in out.stdout.split()]
    assert len(pids) == 2
    time.sleep(0.2)
    for pid in pids:
        assert not os.path.exists(f'/proc/{pid}') or \
            open(f'/proc/{pid}/stat').read().rsplit(')', 1)[1].split()[0] == 'Z'


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
