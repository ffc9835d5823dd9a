"""The simplest communicator: one MPI allreduce per parameter, on NumPy or (via host) CuPy."""
import numpy

import chainer
from chainer import backend
from chainermn.communicators import _memory_utility
from chainermn.communicators import mpi_communicator_base


class NaiveCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Averages gradients with one MPI allreduce per parameter, in the parameter's dtype.

    It runs on CPUs (NumPy) and, copying through host memory, on GPUs (CuPy).

    Args:
        mpi_comm: The mpi4py communicator.
    """

    def __init__(self, mpi_comm):
        super().__init__(mpi_comm)

    def multi_node_mean_grad(self, model, zero_fill=False):
        params = _memory_utility.extract_params_set_grad(model, zero_fill)
        if zero_fill:
            _memory_utility.fill_missing_grads(params)
        for p in params:
            grad = p.grad
            host = mpi_communicator_base._to_host(grad)
            # MPI has no portable float16 sum: float16 gradients are summed in float32.
            work = host.astype(numpy.float32) if host.dtype == numpy.float16 else host
            self._multi_node_mean(work, work)
            if chainer.is_debug():
                self._ensure_all_finite(work)
            if work is not grad:
                if backend.get_array_module(grad) is numpy:
                    numpy.copyto(grad, work, casting='unsafe')
                else:
                    grad.set(work.astype(grad.dtype, copy=False))
