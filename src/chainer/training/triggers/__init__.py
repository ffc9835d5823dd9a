"""Triggers: callables that tell the trainer when to stop or run an extension."""
from chainer import _lazy
from chainer.training.triggers import early_stopping_trigger  # NOQA
from chainer.training.triggers import interval_trigger  # NOQA
from chainer.training.triggers import manual_schedule_trigger  # NOQA
from chainer.training.triggers import minmax_value_trigger  # NOQA
from chainer.training.triggers import once_trigger  # NOQA
from chainer.training.triggers import time_trigger  # NOQA

from chainer.training.triggers.early_stopping_trigger import EarlyStoppingTrigger  # NOQA
from chainer.training.triggers.interval_trigger import IntervalTrigger  # NOQA
from chainer.training.triggers.manual_schedule_trigger import ManualScheduleTrigger  # NOQA
from chainer.training.triggers.minmax_value_trigger import BestValueTrigger  # NOQA
from chainer.training.triggers.minmax_value_trigger import MaxValueTrigger  # NOQA
from chainer.training.triggers.minmax_value_trigger import MinValueTrigger  # NOQA
from chainer.training.triggers.once_trigger import OnceTrigger  # NOQA
from chainer.training.triggers.time_trigger import TimeTrigger  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
