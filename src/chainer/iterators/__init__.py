"""Dataset iterators: serial, multi-thread and multi-process, and order samplers."""
from chainer import _lazy
from chainer.iterators import dali_iterator  # NOQA
from chainer.iterators import multiprocess_iterator  # NOQA
from chainer.iterators import multithread_iterator  # NOQA
from chainer.iterators import order_samplers  # NOQA
from chainer.iterators import serial_iterator  # NOQA

from chainer.iterators.dali_iterator import DaliIterator  # NOQA
from chainer.iterators.multiprocess_iterator import MultiprocessIterator  # NOQA
from chainer.iterators.multithread_iterator import MultithreadIterator  # NOQA
from chainer.iterators.order_samplers import OrderSampler  # NOQA
from chainer.iterators.order_samplers import ShuffleOrderSampler  # NOQA
from chainer.iterators.serial_iterator import SerialIterator  # NOQA

# Submodules are attributes, imported when first asked for (as Chainer's eager imports make
# them).
__getattr__ = _lazy.submodule_getattr(__name__)
