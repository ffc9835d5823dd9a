"""Saving and loading links, optimizers and trainers (``.npz`` and HDF5 files)."""
from chainer import _lazy
from chainer.serializers.hdf5 import HDF5Deserializer  # NOQA
from chainer.serializers.hdf5 import HDF5Serializer  # NOQA
from chainer.serializers.hdf5 import load_hdf5  # NOQA
from chainer.serializers.hdf5 import save_hdf5  # NOQA
from chainer.serializers.npz import DictionarySerializer  # NOQA
from chainer.serializers.npz import load_npz  # NOQA
from chainer.serializers.npz import NpzDeserializer  # NOQA
from chainer.serializers.npz import save_npz  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
