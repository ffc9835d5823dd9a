"""Starting ``mpiexec`` from a single-process test."""
import os
import pathlib
import shutil
import sys

import pytest

import chainermn

# The folder that holds this chainermn, for the PYTHONPATH of the processes started.
SRC = str(pathlib.Path(chainermn.__file__).resolve().parent.parent)


def mpiexec():
    """The path of mpiexec (beside this interpreter first); skips the test without one."""
    try:
        import mpi4py  # NOQA
    except ImportError:
        pytest.skip("mpi4py is not installed (pip install 'rechainer[mpi]')")
    found = shutil.which('mpiexec', path=os.path.dirname(sys.executable)) or \
        shutil.which('mpiexec')
    if found is None:
        pytest.skip('no mpiexec (pip install mpich)')
    return found


def env(**extra):
    """This process's environment, with this chainermn importable and ``extra`` set."""
    return dict(os.environ, OMP_NUM_THREADS='1', **extra,
                PYTHONPATH=SRC + os.pathsep + os.environ.get('PYTHONPATH', ''))
