"""Conditions for skipping doctest examples (the ``:skipif:`` option of ``.. doctest::``).

Each returns whether an example should be skipped.
"""
import os

from chainer.testing import helper


def skipif(condition):
    """Whether to skip: ``condition``, unless the environment variable
    ``CHAINER_DOCTEST_NO_SKIP`` asks to run every example."""
    if os.environ.get('CHAINER_DOCTEST_NO_SKIP', '') not in ('', '0'):
        return False
    return bool(condition)


def skipif_requires_satisfied(*requirements):
    """Whether to skip an example that needs ``requirements`` (``'numpy>=1.16'``...)
    that are not installed."""
    return skipif(not all(helper._satisfied(r) for r in requirements))


def skipif_not_enough_cuda_devices(device_count):
    """Whether to skip an example that needs ``device_count`` GPUs."""
    try:
        from chainer.backends import cuda
        available = cuda.cupy.cuda.runtime.getDeviceCount() if cuda.available else 0
    except Exception:
        available = 0
    return skipif(available < device_count)
