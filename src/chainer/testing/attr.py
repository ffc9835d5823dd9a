"""pytest markers that classify tests by the hardware or time they need.

The markers are registered in ``pyproject.toml``; the default run deselects ``slow`` and
``gpu`` (``-m 'not slow and not gpu'``).
"""
import functools
import os

import pytest

cudnn = pytest.mark.cudnn
slow = pytest.mark.slow
ideep = pytest.mark.ideep
chainerx = pytest.mark.chainerx


def is_available():
    """Whether the markers work (they need pytest, which rechainer's tests require)."""
    return True


def get_error():
    """The error met when loading pytest, or ``None`` (always ``None`` here)."""
    return None


def check_available():
    """Raises the error met when loading pytest, if any (never, here)."""


@functools.cache
def get_gpu_count():
    """Number of CUDA devices usable by tests (0 without CuPy).

    ``CHAINER_TEST_GPU_LIMIT`` caps the count, so that multi-GPU tests can be switched
    off on a machine that has several devices.
    """
    try:
        import cupy
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception:  # CuPy missing, or present without a driver or device
        count = 0
    limit = os.environ.get('CHAINER_TEST_GPU_LIMIT')
    if limit is not None:
        count = min(count, int(limit))
    return count


def gpu(f):
    """Marks a test as needing a GPU (``pytest -m gpu`` selects these tests)."""
    return pytest.mark.gpu(f)


def multi_gpu(gpu_num):
    """Marks a test as needing ``gpu_num`` GPUs and skips it when fewer are present.

    The test also gets the ``gpu`` and ``multi_gpu`` markers.
    """

    def decorator(obj):
        skip = pytest.mark.skipif(
            get_gpu_count() < gpu_num, reason=f'requires {gpu_num} GPUs')
        return gpu(pytest.mark.multi_gpu(gpu_num)(skip(obj)))

    return decorator
