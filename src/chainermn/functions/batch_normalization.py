"""Batch normalization over the examples of every process (the function of
:class:`~chainermn.links.MultiNodeBatchNormalization`).

The statistics are the mean and variance of the union of every process's batch: the
per-channel sums (and the example counts) are summed over the processes. It is written with
differentiable functions around one differentiable all-reduce, so backward sums the gradients
of the statistics over the processes, and the gradient of each process's input is that of
batch normalization over the concatenated batch.
"""
import numpy

import chainer
from chainer import backend
from chainer import function_node
from chainer import variable
import chainer.functions as F
from chainer.functions.normalization import batch_normalization as _bn


class _AllreduceSum(function_node.FunctionNode):
    """The elementwise sum of ``x`` over the processes; its gradient is the same sum."""

    def __init__(self, impl):
        self.impl = impl

    def forward(self, inputs):
        return self.impl.allreduce(inputs[0]),

    def backward(self, target_input_indexes, grad_outputs):
        # Each process's loss depends on the sum: the gradient of x (on every process) is
        # the sum of the gradients of the sum over the processes.
        return _AllreduceSum(self.impl).apply(grad_outputs)


class _MpiImpl:
    """Sums arrays over the processes with the communicator's MPI ``allreduce``."""

    name = 'mpi'

    def __init__(self, comm):
        self.comm = comm

    def allreduce(self, x):
        return self.comm.allreduce(x)


class _NcclImpl(_MpiImpl):
    """Sums arrays over the processes through a ``pure_nccl`` communicator."""

    name = 'nccl'


def get_communication_backend(comm, communication_backend='auto'):
    """Chooses how MultiNodeBatchNormalization sums its statistics over the processes.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        communication_backend (str): ``'mpi'``, ``'nccl'`` (``pure_nccl`` communicators
            only) or ``'auto'`` (``'nccl'`` for a ``pure_nccl`` communicator, else ``'mpi'``).

    Returns:
        str: ``'mpi'`` or ``'nccl'``.
    """
    from chainermn.communicators import pure_nccl_communicator
    is_nccl = isinstance(comm, pure_nccl_communicator.PureNcclCommunicator)
    if communication_backend == 'auto':
        return 'nccl' if is_nccl else 'mpi'
    if communication_backend == 'nccl':
        if not is_nccl:
            raise ValueError(f'nccl is not supported in MultiNodeBatchNormalization when using '
                             f'{type(comm)}; use a pure_nccl communicator, or '
                             "communication_backend='mpi'")
        return 'nccl'
    if communication_backend == 'mpi':
        return 'mpi'
    raise ValueError(f'MultiNodeBatchNormalization does not support {communication_backend}; '
                     "expected 'auto', 'mpi' or 'nccl'")


class MultiNodeBNImplSelector:
    """Gives the implementation that sums the statistics over the processes.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
        communication_backend_name (str): ``'mpi'`` or ``'nccl'``
            (see :func:`get_communication_backend`).
    """

    def __init__(self, comm, communication_backend_name):
        self.comm = comm
        self.communication_backend_name = communication_backend_name

    def __call__(self, batch_norm_func, inputs):
        # (Chainer's selector protocol: the arguments do not change the choice)
        impl = _NcclImpl if self.communication_backend_name == 'nccl' else _MpiImpl
        return impl(self.comm)


def _batch_normalization(x, gamma, beta, impl, eps, running_mean=None, running_var=None,
                         decay=0.9):
    """Batch normalization of ``x`` by the statistics of every process's batch.

    The channels are the axes of ``gamma`` after the batch axis; the statistics are taken
    over the batch axis and the axes after the channels, on all processes. ``running_mean``
    and ``running_var`` (arrays) are updated in place with the global statistics (the
    variance unbiased by the global count).
    """
    x = variable.as_variable(x)
    gamma = variable.as_variable(gamma)
    beta = variable.as_variable(beta)
    if x.ndim < gamma.ndim + 1 or x.shape[1:1 + gamma.ndim] != gamma.shape:
        raise ValueError(f'MultiNodeBatchNormalization: x of shape {x.shape} does not match '
                         f'the parameters of shape {gamma.shape} (expected x.shape[1:'
                         f'{1 + gamma.ndim}] == {gamma.shape})')
    if x.dtype.kind != 'f':
        raise TypeError(f'MultiNodeBatchNormalization: x must be floating point, got '
                        f'{x.dtype}')
    xp = backend.get_array_module(x)
    axes = _bn._aggregate_axes(x.ndim, gamma.ndim, None)
    shape = _bn._param_shape(x.shape, axes)
    dtype = _bn.compute_dtype(x.dtype, gamma.dtype)
    xc = _bn.as_dtype(x, dtype)
    size = gamma.size

    # Pass 1: the sum of x and the number of values per channel, over all processes.
    local_count = xp.array([x.size // size], dtype)
    sums = F.concat((F.reshape(F.sum(xc, axis=axes), (size,)), local_count), axis=0)
    sums = _AllreduceSum(impl).apply((sums,))[0]
    count = float(sums.array[size])
    if count == 0:
        raise ValueError('MultiNodeBatchNormalization: every process has an empty batch')
    mean = F.reshape(sums[:size], shape) / dtype.type(count)
    # Pass 2: the variance around the global mean (more accurate than E[x^2] - E[x]^2).
    d = xc - F.broadcast_to(mean, x.shape)
    var = _AllreduceSum(impl).apply((F.sum(d * d, axis=axes, keepdims=True),))[0]
    var = var / dtype.type(count)
    inv_std = F.rsqrt(var + dtype.type(eps))
    scale = F.reshape(_bn.as_dtype(gamma, dtype), shape) * inv_std
    y = d * F.broadcast_to(scale, x.shape) + F.broadcast_to(
        F.reshape(_bn.as_dtype(beta, dtype), shape), x.shape)
    if running_mean is not None or running_var is not None:
        _bn.update_running(running_mean, running_var, mean.array.reshape(gamma.shape),
                           var.array.reshape(gamma.shape), count, decay)
    return _bn.as_dtype(y, x.dtype)
