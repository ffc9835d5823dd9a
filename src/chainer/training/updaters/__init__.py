"""Updaters: one training iteration over iterators and optimizers."""
from chainer import _lazy
from chainer.training.updaters import multiprocess_parallel_updater  # NOQA
from chainer.training.updaters import parallel_updater  # NOQA
from chainer.training.updaters import standard_updater  # NOQA

from chainer.training.updaters.multiprocess_parallel_updater import (  # NOQA
    MultiprocessParallelUpdater)
from chainer.training.updaters.parallel_updater import ParallelUpdater  # NOQA
from chainer.training.updaters.standard_updater import StandardUpdater  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
