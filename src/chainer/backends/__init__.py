"""Backend modules: ``cuda`` (CuPy), ``intel64`` (iDeep; never available)."""
from chainer import _lazy
from chainer.backends import cuda  # NOQA
from chainer.backends import intel64  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
