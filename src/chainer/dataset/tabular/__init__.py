"""Tabular datasets: columns with keys, sliced and combined without copying."""
from chainer import _lazy
from chainer.dataset.tabular import _asmode  # NOQA
from chainer.dataset.tabular import _concat  # NOQA
from chainer.dataset.tabular import _join  # NOQA
from chainer.dataset.tabular import _slice  # NOQA
from chainer.dataset.tabular import _transform  # NOQA
from chainer.dataset.tabular import _with_converter  # NOQA

from chainer.dataset.tabular.delegate_dataset import DelegateDataset  # NOQA
from chainer.dataset.tabular.from_data import from_data  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
