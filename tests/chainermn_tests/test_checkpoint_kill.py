"""The multi-node checkpointer after a SIGKILL: both ranks restart from the newest checkpoint
they both have, and the run ends with the parameters of an uninterrupted one.

Runs _checkpoint_job.py under ``mpiexec -n 2`` three times (killed, restarted,
uninterrupted); each call is bounded by a timeout.
"""
import os
import pathlib
import subprocess
import sys

import numpy

from chainermn_tests import _launch

JOB = str(pathlib.Path(__file__).resolve().parent / '_checkpoint_job.py')
STOP, KILL_AT = 14, 9


def run(mpiexec, *args):
    env = _launch.env(CHAINERMN_FORCE_ABORT_ON_EXCEPTION='1')
    return subprocess.run([mpiexec, '-n', '2', sys.executable, JOB, *map(str, args)],
                          capture_output=True, text=True, env=env, timeout=300)


def checkpoints(folder, rank):
    return sorted(int(name.split('.')[2]) for name in os.listdir(folder)
                  if name.startswith(f'job.{rank}.'))


def test_killed_rank_restart_resumes_from_the_newest_common_checkpoint(tmp_path):
    mpiexec = _launch.mpiexec()
    out, ref = tmp_path / 'out', tmp_path / 'ref'

    killed = run(mpiexec, out, tmp_path / 'killed', STOP, KILL_AT)
    assert killed.returncode != 0, killed.stdout
    assert f'rank 1: SIGKILL at iteration {KILL_AT}' in killed.stdout
    # Rank 0 wrote the checkpoint of the kill's iteration; rank 1 did not. (The removal of
    # old ones at the 8th checkpoint kept the 3 newest common ones.)
    assert checkpoints(out, 0) == [6, 7, 8, 9]
    assert checkpoints(out, 1) == [6, 7, 8]

    restarted = run(mpiexec, out, tmp_path / 'restarted', STOP)
    assert restarted.returncode == 0, restarted.stdout[-3000:] + restarted.stderr[-3000:]
    assert 'rank 0: resumed from 8' in restarted.stdout
    assert 'rank 1: resumed from 8' in restarted.stdout
    assert checkpoints(out, 0) == checkpoints(out, 1) == []     # removed at the normal end

    uninterrupted = run(mpiexec, ref, tmp_path / 'uninterrupted', STOP)
    assert uninterrupted.returncode == 0, uninterrupted.stderr[-3000:]
    assert 'rank 0: resumed from None' in uninterrupted.stdout
    for rank in (0, 1):
        with numpy.load(tmp_path / f'restarted.{rank}.npz') as a, \
                numpy.load(tmp_path / f'uninterrupted.{rank}.npz') as b:
            assert sorted(a.files) == sorted(b.files) and a.files
            for name in a.files:
                numpy.testing.assert_array_equal(a[name], b[name], err_msg=name)
