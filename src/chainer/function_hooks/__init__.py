"""Concrete function hooks: timing, debug printing, CuPy memory and CUDA profiling.

Each hook is a :class:`chainer.FunctionHook`; register it for the current
thread with ``with hook:`` or on one node with ``node.add_hook(hook)``.
"""
from chainer import _lazy
from chainer.function_hooks.cuda_profile import CUDAProfileHook  # NOQA
from chainer.function_hooks.cupy_memory_profile import CupyMemoryProfileHook  # NOQA
from chainer.function_hooks.debug_print import PrintHook  # NOQA
from chainer.function_hooks.timer import TimerHook  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
