"""Backend modules: ``cuda`` (CuPy), ``intel64`` (iDeep; never available)."""
from chainer.backends import cuda  # NOQA
from chainer.backends import intel64  # NOQA
