"""The MPI tests: they run only under ``mpiexec -n N`` (N >= 2), and skip otherwise.

    .venv/bin/mpiexec -n 2 .venv/bin/python -m pytest -p no:cacheprovider tests/chainermn_tests/mpi
    .venv/bin/mpiexec -n 3 .venv/bin/python -m pytest -p no:cacheprovider tests/chainermn_tests/mpi

Every rank runs the same tests in the same order. Run them with pytest-timeout
(``--timeout 60``): a rank left waiting in a collective for a rank that failed is then ended,
and mpiexec ends the job.
"""
import os
import pathlib

import pytest

HERE = pathlib.Path(__file__).resolve().parent
CPU_COMMUNICATORS = ('naive', 'flat', 'non_cuda_aware', 'dummy')


def world_size():
    """The number of processes mpiexec started, read from its environment (0 if none)."""
    for var in ('PMI_SIZE', 'OMPI_COMM_WORLD_SIZE', 'PMIX_SIZE', 'MPI_LOCALNRANKS'):
        if os.environ.get(var, '').isdigit():
            return int(os.environ[var])
    return 0


def _skip_reason():
    try:
        import mpi4py  # NOQA  (the package only: importing mpi4py.MPI would start MPI)
    except ImportError:
        return "mpi4py is not installed (pip install 'rechainer[mpi]')"
    if world_size() < 2:
        return ('MPI test: run under mpiexec with 2 or more processes, e.g. '
                '.venv/bin/mpiexec -n 2 .venv/bin/python -m pytest tests/chainermn_tests/mpi')
    return None


SKIP_REASON = _skip_reason()
if SKIP_REASON is None:
    # A rank that dies of an uncaught exception ends the whole job instead of leaving the
    # others waiting.
    os.environ.setdefault('CHAINERMN_FORCE_ABORT_ON_EXCEPTION', '1')
    import chainermn.global_except_hook
    chainermn.global_except_hook.add_hook()


def pytest_collection_modifyitems(config, items):
    # The model-parallel API warns that it is experimental on every call.
    quiet = pytest.mark.filterwarnings('ignore:.* is experimental:FutureWarning')
    skip = pytest.mark.skip(reason=SKIP_REASON) if SKIP_REASON is not None else None
    for item in items:
        if HERE in pathlib.Path(str(item.fspath)).resolve().parents:
            item.add_marker(quiet)
            if skip is not None:
                item.add_marker(skip)


@pytest.fixture(scope='session')
def comm():
    import chainermn
    return chainermn.create_communicator('naive')


@pytest.fixture(params=CPU_COMMUNICATORS)
def any_comm(request):
    import chainermn
    c = chainermn.create_communicator(request.param)
    yield c
    c.finalize()
