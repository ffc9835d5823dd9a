"""Theano interoperation (not supported by rechainer)."""
from chainer import _lazy
from chainer.links.theano.theano_function import TheanoFunction  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
