"""Loads mpi4py on first use, so that ``import chainermn`` works without it."""

_EXTRA_HINT = "install the 'mpi' extra: pip install 'rechainer[mpi]' (mpi4py and mpich)"


def mpi():
    """Returns the ``mpi4py.MPI`` module.

    Raises:
        ImportError: If mpi4py is not installed; the message names the extra that brings it.
    """
    try:
        from mpi4py import MPI
    except ImportError as e:
        raise ImportError(f'chainermn needs mpi4py to communicate between processes; '
                          f'{_EXTRA_HINT}') from e
    return MPI
