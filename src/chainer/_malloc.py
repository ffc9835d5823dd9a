"""Keeps the C allocator from handing freed array memory back to the kernel at every step.

A training step allocates and frees the same few-megabyte arrays (activations, their
gradients, im2col matrices) every iteration. With glibc's default settings, freed memory at
the top of the heap beyond twice the largest array seen so far is returned to the kernel,
and the next step's arrays fault it in again, page by page: a LeNet-sized CNN step spent
about 15% of its time in those page faults. Raising the trim threshold keeps that memory in
the process; the peak (``ru_maxrss``) is unchanged, but up to :data:`TRIM_THRESHOLD` bytes
of free heap may stay mapped after a peak instead of being returned at once.

Only glibc on Linux is tuned, only when the user set none of glibc's malloc variables
(``MALLOC_TRIM_THRESHOLD_``, ``MALLOC_MMAP_THRESHOLD_``, ``MALLOC_TOP_PAD_``,
``MALLOC_MMAP_MAX_``, or ``glibc.malloc`` tunables in ``GLIBC_TUNABLES``), and not when
``RECHAINER_MALLOC_TUNING=0``.
"""
import ctypes
import os
import sys

# mallopt's parameter numbers (malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

# Setting either parameter turns off glibc's own adjustment of both, which raises the mmap
# threshold up to 32 MiB (its ceiling on 64-bit systems) as arrays are freed: that ceiling
# is set at once, so arrays up to 32 MiB come from the heap, as they end up doing anyway.
MMAP_THRESHOLD = 32 * 1024 * 1024
TRIM_THRESHOLD = 128 * 1024 * 1024

_USER_VARIABLES = ('MALLOC_TRIM_THRESHOLD_', 'MALLOC_MMAP_THRESHOLD_', 'MALLOC_TOP_PAD_',
                   'MALLOC_MMAP_MAX_')

tuned = False   # whether tune() changed the allocator's settings in this process


def _wanted():
    env = os.environ
    if env.get('RECHAINER_MALLOC_TUNING', '1') == '0':
        return False
    if any(name in env for name in _USER_VARIABLES):
        return False
    return 'glibc.malloc' not in env.get('GLIBC_TUNABLES', '')


def tune():
    """Sets the trim and mmap thresholds once, where it applies (see the module's text)."""
    global tuned
    if tuned or not sys.platform.startswith('linux') or not _wanted():
        return
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
        libc.gnu_get_libc_version     # (glibc only: musl has mallopt as a stub)
    except (OSError, AttributeError):
        return
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # mallopt returns 1 on success; a refused value leaves the default in place.
    tuned = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(
        mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
