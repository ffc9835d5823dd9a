"""Exporting models to other frameworks' formats (Caffe: not supported by rechainer)."""
from chainer import _lazy

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
