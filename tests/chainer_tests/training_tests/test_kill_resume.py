"""SIGKILL in the middle of an epoch and of a snapshot write, then resume with autoload."""
import os
import signal
import subprocess
import sys

import numpy
import pytest

import chainer
from chainer.serializers import _files

SCRIPT = os.path.join(os.path.dirname(__file__), '_kill_resume_script.py')


def _run(out, *args):
    env = dict(os.environ)
    src = os.path.dirname(os.path.dirname(chainer.__file__))
    env['PYTHONPATH'] = src + os.pathsep + env.get('PYTHONPATH', '')
    return subprocess.run([sys.executable, SCRIPT, str(out), *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=120)


def _check_snapshots_complete(out):
    names = [n for n in os.listdir(out) if n.startswith('snapshot_iter_')]
    for name in names:
        _files.read_npz(os.path.join(out, name))  # raises on a truncated file
    return sorted(names)


@pytest.mark.skipif(sys.platform == 'win32', reason='needs SIGKILL')
def test_killed_runs_resume_to_the_uninterrupted_result(tmp_path):
    whole = _run(tmp_path / 'whole')
    assert whole.returncode == 0, whole.stderr
    ref = numpy.load(tmp_path / 'whole' / 'final.npz')

    out = tmp_path / 'killed'
    # Killed mid-epoch (iteration 7 of 15; epochs are 2.4 iterations long).
    r = _run(out, '--kill-at-iter', 7)
    assert r.returncode == -signal.SIGKILL, r.stderr
    assert _check_snapshots_complete(out) == ['snapshot_iter_4']
    # Resumed from iteration 4, killed while writing the snapshot of iteration 12.
    r = _run(out, '--kill-in-save', 12)
    assert r.returncode == -signal.SIGKILL, r.stderr
    assert _check_snapshots_complete(out) == ['snapshot_iter_4', 'snapshot_iter_8']
    assert any(n.startswith('.snapshot_iter_12.') for n in os.listdir(out))  # the partial one
    # Resumed from iteration 8 to the end.
    r = _run(out)
    assert r.returncode == 0, r.stderr
    assert not any(n.endswith('.tmp') for n in os.listdir(out))
    assert _check_snapshots_complete(out) == ['snapshot_iter_12', 'snapshot_iter_8']
    got = numpy.load(out / 'final.npz')
    assert sorted(got.files) == sorted(ref.files)
    for key in ref.files:
        numpy.testing.assert_array_equal(got[key], ref[key], err_msg=key)
    assert r.stdout.split() == whole.stdout.split()
