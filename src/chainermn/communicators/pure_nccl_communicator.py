"""A communicator that averages gradients with NCCL on the GPUs."""
import numpy

import chainer
from chainermn import nccl
from chainermn.communicators import _communication_utility
from chainermn.communicators import _memory_utility
from chainermn.communicators import mpi_communicator_base

_TRANSFER_DTYPES = ('float16', 'float32', 'float64')


def _all_on_gpu(params, attr_name):
    return all(mpi_communicator_base._is_cupy_array(getattr(p, attr_name)) for p in params)


class PureNcclCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Averages gradients and broadcasts parameters with NCCL; needs CuPy built with NCCL 2.

    The gradients cross NCCL in one packed buffer whose dtype is chosen as follows:

    =====================  ======  =============  =============
    global_config.dtype    allreduce_grad_dtype
    ---------------------  ------------------------------------
    \\                      None    numpy.float16  numpy.float32
    =====================  ======  =============  =============
    ``chainer.mixed16``    FP16    FP16           FP32
    ``numpy.float16``      FP16    FP16           FP32
    ``numpy.float32``      FP32    FP16           FP32
    =====================  ======  =============  =============

    ``allreduce_grad_dtype`` may also be ``numpy.float64``; with ``None`` and a
    ``numpy.float64`` global dtype, FP64 is used. Other collectives go through MPI.

    Args:
        mpi_comm: The mpi4py communicator.
    """

    def __init__(self, mpi_comm):
        if not nccl._available:
            raise RuntimeError('PureNcclCommunicator needs NCCL 2.0+ through CuPy, but CuPy '
                               'with NCCL is not available (install CuPy for your CUDA: '
                               "pip install 'rechainer[cuda]'); use 'naive' or 'flat' on CPUs")
        if nccl.get_build_version() < 2000:
            raise RuntimeError(f'PureNcclCommunicator needs NCCL 2.0+, but CuPy was built with '
                               f'NCCL {nccl.get_build_version()}')
        super().__init__(mpi_comm)
        self.nccl_comm = None
        self._recv_buffers = _memory_utility.BufferCache()
        self.set_config('allreduce_grad_dtype', None)

    def _init_comms(self):
        if self.nccl_comm is None:
            self.nccl_comm = _communication_utility.init_nccl_comm(self.mpi_comm)

    def finalize(self):
        if self.nccl_comm is not None:
            self.nccl_comm.destroy()
        self.nccl_comm = None
        self._buffers.clear()
        self._recv_buffers.clear()

    def set_config(self, name, value=True, **kwargs):
        """Sets ``batched_copy`` or ``allreduce_grad_dtype`` (None, float16, float32 or
        float64: the dtype of the gradients inside NCCL)."""
        if name != 'allreduce_grad_dtype':
            return super().set_config(name, value, **kwargs)
        if value is not None:
            try:
                dtype = numpy.dtype(value)
            except TypeError:
                dtype = None
            if dtype is None or dtype.name not in _TRANSFER_DTYPES:
                raise ValueError(f'allreduce_grad_dtype must be None or one of '
                                 f'{", ".join(_TRANSFER_DTYPES)}, got {value!r}')
            value = dtype
        self._configs['allreduce_grad_dtype'] = value

    def get_config(self, name=None):
        return super().get_config(name)

    def _transfer_dtype(self):
        dtype = self._configs['allreduce_grad_dtype']
        if dtype is not None:
            return dtype
        global_dtype = numpy.dtype(chainer.get_dtype())
        if global_dtype in (numpy.float32, numpy.float64):
            return global_dtype
        return numpy.dtype(numpy.float16)

    def bcast_data(self, model):
        params = _memory_utility.extract_params_set_data(model)
        if not params or not _all_on_gpu(params, 'array'):
            return super().bcast_data(model)
        self._init_comms()
        cupy = chainer.backends.cuda.cupy
        stream = cupy.cuda.get_current_stream()
        buf = cupy.concatenate([cupy.ascontiguousarray(p.array).reshape(-1).view(cupy.uint8)
                                for p in params])
        self.nccl_comm.bcast(buf.data.ptr, buf.size, nccl.NCCL_UINT8, 0, stream.ptr)
        offset = 0
        for p in params:
            n = p.array.nbytes
            p.array[...] = buf[offset:offset + n].view(p.array.dtype).reshape(p.array.shape)
            offset += n

    def multi_node_mean_grad(self, model, zero_fill=False):
        params = _memory_utility.extract_params_set_grad(model, zero_fill)
        if not params:
            return
        if zero_fill:
            _memory_utility.fill_missing_grads(params)
        if not _all_on_gpu(params, 'grad'):
            return self._packed_mean_grad(model, zero_fill)
        cupy = chainer.backends.cuda.cupy
        self._multi_node_mean_grad_async(model, zero_fill, cupy.cuda.get_current_stream())

    def _multi_node_mean_grad_async(self, model, zero_fill, stream):
        self._init_comms()
        params = _memory_utility.extract_params_set_grad(model, zero_fill)
        if not params:
            return
        dtype = self._transfer_dtype()
        n = _memory_utility.count_grad_elements(params, zero_fill)
        sendbuf, recvbuf = self._prepare_allreduce_pack_buffer(dtype, n)
        packed = self._pack_params_to_buffer(params, 'grad', sendbuf, dtype, zero_fill, stream)
        self._multi_node_mean_nccl(packed, recvbuf, n, dtype, stream)
        if chainer.is_debug():
            stream.synchronize()
            self._ensure_all_finite(recvbuf)
        self._unpack_params_from_buffer(params, 'grad', recvbuf, dtype, zero_fill, stream)

    def _prepare_allreduce_pack_buffer(self, allreduce_grad_dtype, n_elems):
        cupy = chainer.backends.cuda.cupy
        return (self._buffers.get(cupy, allreduce_grad_dtype, n_elems)[:n_elems],
                self._recv_buffers.get(cupy, allreduce_grad_dtype, n_elems)[:n_elems])

    def _multi_node_mean_nccl(self, sendbuf, recvbuf, n_elems, dtype, stream=None):
        cupy = chainer.backends.cuda.cupy
        if stream is None:
            stream = cupy.cuda.get_current_stream()
        type_id = _communication_utility._get_nccl_type_id(dtype)
        self.nccl_comm.allReduce(sendbuf.data.ptr, recvbuf.data.ptr, n_elems, type_id,
                                 nccl.NCCL_SUM, stream.ptr)
        with stream:
            recvbuf /= self.size
