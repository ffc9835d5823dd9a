"""Test-session settings shared by the whole suite."""
import functools

import pytest


@functools.lru_cache(maxsize=None)
def _gpu_available():
    try:
        import cupy
        return cupy.cuda.runtime.getDeviceCount() > 0
    except Exception:
        return False


def pytest_collection_modifyitems(config, items):
    # Tests marked gpu skip cleanly on machines without CuPy or a GPU (also under -m gpu).
    gpu_items = [item for item in items if 'gpu' in item.keywords]
    if not gpu_items or _gpu_available():
        return
    skip = pytest.mark.skip(reason='needs CuPy and an NVIDIA GPU')
    for item in gpu_items:
        item.add_marker(skip)
