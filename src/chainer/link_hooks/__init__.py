"""Link hooks: code run around link calls (see :class:`chainer.LinkHook`)."""
from chainer import _lazy
from chainer.link_hooks.spectral_normalization import SpectralNormalization  # NOQA
from chainer.link_hooks.timer import TimerHook  # NOQA
from chainer.link_hooks.weight_standardization import WeightStandardization  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
