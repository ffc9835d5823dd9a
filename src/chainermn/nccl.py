"""NCCL as CuPy ships it (``cupy.cuda.nccl``), or nothing.

``_available`` says whether CuPy was built with NCCL. When it is, every name of
``cupy.cuda.nccl`` (``NcclCommunicator``, ``get_unique_id``, ``NCCL_FLOAT32``, ...) is
reachable from here. Without it, :func:`get_build_version` and :func:`get_version`
return 0, so that a check such as ``nccl.get_build_version() < 2000`` reads "too old".
"""
try:
    from cupy.cuda import nccl as _nccl
    _available = True
except Exception:  # CuPy absent, or built without NCCL, or no CUDA driver
    _nccl = None
    _available = False


def get_build_version():
    """The NCCL version CuPy was built with (e.g. ``21805``), or 0 without NCCL."""
    return _nccl.get_build_version() if _available else 0


def get_version():
    """The version of the NCCL library loaded at run time, or 0 without NCCL."""
    return _nccl.get_version() if _available else 0


def __getattr__(name):
    if _available and not name.startswith('__'):
        return getattr(_nccl, name)
    raise AttributeError(f"module 'chainermn.nccl' has no attribute {name!r}"
                         + ('' if _available else ' (CuPy with NCCL is not available)'))
