"""Hooks that modify gradients before an optimizer's update (``chainer.optimizer_hooks``)."""
from chainer import _lazy
from chainer.optimizer_hooks.gradient_clipping import GradientClipping  # NOQA
from chainer.optimizer_hooks.gradient_hard_clipping import GradientHardClipping  # NOQA
from chainer.optimizer_hooks.gradient_lars import GradientLARS  # NOQA
from chainer.optimizer_hooks.gradient_noise import GradientNoise  # NOQA
from chainer.optimizer_hooks.lasso import Lasso  # NOQA
from chainer.optimizer_hooks.weight_decay import WeightDecay  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
