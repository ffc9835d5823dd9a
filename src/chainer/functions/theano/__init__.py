"""Theano graphs as functions (not supported by rechainer; see ``theano_function``)."""
from chainer import _lazy

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
