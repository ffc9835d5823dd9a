"""Ends the whole MPI job when one process dies of an uncaught exception.

Without it, the other processes of a job wait forever in their next collective for the one
that died. Setting the environment variable ``CHAINERMN_FORCE_ABORT_ON_EXCEPTION`` (to any
value) installs the hook when ``chainermn`` is imported.
"""
import os
import sys
import time
import traceback

_orig_except_hook = None


def _global_except_hook(exctype, value, tb):
    try:
        from mpi4py import MPI
        rank = MPI.COMM_WORLD.Get_rank()
        banner = ('\n'
                  '******************************************\n'
                  'ChainerMN:\n'
                  f'   Uncaught exception on rank {rank}.\n'
                  '   Calling MPI_Abort() to shut down MPI...\n'
                  '******************************************\n\n')
        sys.stdout.flush()
        if _orig_except_hook in (None, sys.__excepthook__):
            # The traceback and the banner in one write: the launcher forwards a rank's
            # output in chunks, and MPI_Abort can cut off what it has not forwarded yet.
            text = ''.join(traceback.format_exception(exctype, value, tb)) + banner
        else:
            _orig_except_hook(exctype, value, tb)   # a hook of the user's prints its own way
            text = banner
        sys.stderr.write(text)
        sys.stderr.flush()
        time.sleep(0.2)     # (time for the launcher to forward it before the job is torn down)
        MPI.COMM_WORLD.Abort(1)
    except Exception:
        # Never fail silently inside the hook: show what went wrong, then abort anyway.
        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)


def add_hook():
    """Installs a ``sys.excepthook`` that prints the exception and calls ``MPI_Abort``.

    Any process that dies of an uncaught exception then ends every process of the job,
    which is what cluster schedulers and cloud platforms need to notice the failure.
    """
    global _orig_except_hook
    if _orig_except_hook is not None:
        return  # already installed
    _orig_except_hook = sys.excepthook
    sys.excepthook = _global_except_hook


def _add_hook_if_enabled():
    if 'CHAINERMN_FORCE_ABORT_ON_EXCEPTION' in os.environ:
        add_hook()
