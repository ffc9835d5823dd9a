"""Training loop abstraction: trainer, updaters, extensions and triggers."""
from chainer import _lazy
from chainer.training import extension  # NOQA
from chainer.training import extensions  # NOQA
from chainer.training import trainer  # NOQA
from chainer.training import trigger  # NOQA
from chainer.training import triggers  # NOQA
from chainer.training import updater  # NOQA
from chainer.training import updaters  # NOQA
from chainer.training import util  # NOQA

from chainer.training._updater import Updater  # NOQA
from chainer.training.extension import Extension  # NOQA
from chainer.training.extension import make_extension  # NOQA
from chainer.training.extension import PRIORITY_EDITOR  # NOQA
from chainer.training.extension import PRIORITY_READER  # NOQA
from chainer.training.extension import PRIORITY_WRITER  # NOQA
from chainer.training.trainer import Trainer  # NOQA
from chainer.training.triggers import IntervalTrigger  # NOQA
from chainer.training.updaters import ParallelUpdater  # NOQA
from chainer.training.updaters import StandardUpdater  # NOQA
from chainer.training.util import get_trigger  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
