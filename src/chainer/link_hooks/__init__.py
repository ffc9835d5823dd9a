"""Link hooks: code run around link calls (see :class:`chainer.LinkHook`)."""
from chainer.link_hooks.spectral_normalization import SpectralNormalization  # NOQA
from chainer.link_hooks.timer import TimerHook  # NOQA
from chainer.link_hooks.weight_standardization import WeightStandardization  # NOQA
