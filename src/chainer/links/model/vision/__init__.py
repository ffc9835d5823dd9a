"""Image classification models with Chainer's layer names (VGG, GoogLeNet, ResNet)."""
from chainer import _lazy

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
