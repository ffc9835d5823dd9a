"""ChainerMN: Chainer training across processes and machines, over MPI.

Run the same script under ``mpiexec -n N``: :func:`create_communicator` connects the
processes, :func:`scatter_dataset` gives each its share of the data, and
:func:`create_multi_node_optimizer` averages the gradients before every update. Models can also
be split across processes (:class:`MultiNodeChainList`, :mod:`chainermn.functions`). mpi4py (the
``mpi`` extra) is needed to create a communicator, not to import this package.
"""
import chainer  # NOQA: chainermn.chainer, as in ChainerMN

from chainer import _lazy
from chainermn import communicators  # NOQA
from chainermn import datasets  # NOQA
from chainermn import extensions  # NOQA
from chainermn import functions  # NOQA
from chainermn import global_except_hook  # NOQA
from chainermn import iterators  # NOQA
from chainermn import links  # NOQA
from chainermn import optimizers  # NOQA

from chainermn.communicators import CommunicatorBase  # NOQA
from chainermn.communicators import create_communicator  # NOQA
from chainermn.datasets import DataSizeError  # NOQA
from chainermn.datasets import scatter_dataset  # NOQA
from chainermn.datasets import scatter_index  # NOQA
from chainermn.extensions import create_multi_node_checkpointer  # NOQA
from chainermn.extensions import create_multi_node_evaluator  # NOQA
from chainermn.links import MultiNodeChainList  # NOQA
from chainermn.optimizers import create_multi_node_optimizer  # NOQA

global_except_hook._add_hook_if_enabled()

# Submodules (chainermn.testing...) are attributes, imported when first asked for, as after
# ChainerMN's imports.
__getattr__ = _lazy.submodule_getattr(__name__)
