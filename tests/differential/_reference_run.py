"""Runs scripts on the original Chainer 7.8.1 for the differential tests.

The interpreter is ``$CHAINER_REFERENCE_PYTHON``, else the one ``../shared/reference/setup``
builds (``~/.cache/chainer-7.8.1-reference/bin/python``) when it exists; without either the
tests that need it skip with a reason.
"""
import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
_DEFAULT = pathlib.Path.home() / '.cache' / 'chainer-7.8.1-reference' / 'bin' / 'python'


def reference_python():
    """The reference interpreter's path, or ``None``."""
    path = os.environ.get('CHAINER_REFERENCE_PYTHON')
    if path:
        return path if os.path.exists(path) else None
    return str(_DEFAULT) if _DEFAULT.exists() else None


def require_reference():
    """The reference interpreter's path; skips the calling test without one."""
    path = reference_python()
    if path is None:
        pytest.skip('needs the original Chainer 7.8.1: build it with ../shared/reference/setup '
                    'and set CHAINER_REFERENCE_PYTHON (or leave it in ~/.cache)')
    return path


def run(python, script, *args, timeout=600):
    """Runs ``script`` (a file of this folder) with ``python``; fails the test on error."""
    env = dict(os.environ)
    env.pop('PYTHONPATH', None)
    env['PYTHONHASHSEED'] = '0'
    env.setdefault('OMP_NUM_THREADS', '1')
    env.setdefault('MPLBACKEND', 'Agg')
    proc = subprocess.run([python, str(HERE / script), *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        pytest.fail(f'{script} failed on {python} (exit {proc.returncode}):\n'
                    f'{proc.stdout[-3000:]}\n{proc.stderr[-5000:]}')
    return proc


def ours():
    """This interpreter (rechainer), for running the same scripts in a subprocess."""
    return sys.executable
