"""Communicators built on an mpi4py communicator: arrays, objects and models over MPI.

Arrays travel as raw bytes after a small pickled header (shapes and dtypes), so any supported
dtype uses one code path; sums use MPI's typed reductions. CuPy arrays go through host memory,
which works with any MPI build (CUDA-aware or not). A header can instead carry the error a
process met while checking its input: then every process of the exchange raises it, instead of
the others waiting forever for data that never comes.
"""
import collections.abc

import numpy

import chainer
from chainer import backend
from chainermn import _mpi
from chainermn.communicators import _communication_utility
from chainermn.communicators import _memory_utility
from chainermn.communicators import communicator_base
from chainermn.communicators._communication_utility import chunked_bcast_obj  # NOQA

_SUPPORTED_DTYPES = ('float16', 'float32', 'float64', 'int32', 'int64')


def _is_numpy_array(x):
    return isinstance(x, numpy.ndarray)


def _is_cupy_array(x):
    # By the type's module, so that checking never imports CuPy.
    return type(x).__module__.startswith('cupy') and hasattr(x, 'device')


def _is_array(x):
    return _is_numpy_array(x) or _is_cupy_array(x)


class _RemoteError:
    """Header sent in place of data when a process's input is invalid.

    The process that failed raises its own exception (kept, not sent); the others raise one of
    the same type that names the failing rank.
    """

    def __init__(self, rank, exc):
        self.rank = rank
        self.type = type(exc)
        self.message = str(exc)
        self.local = exc

    def __getstate__(self):
        return {'rank': self.rank, 'type': self.type, 'message': self.message, 'local': None}

    def raise_(self, caller):
        if self.local is not None:
            raise self.local
        raise self.type(f'{caller}: rank {self.rank} failed: {self.message}')


def _raise_first_remote_error(caller, headers):
    for h in headers:
        if isinstance(h, _RemoteError):
            h.raise_(caller)


def _check_dtype(caller, dtype):
    if dtype.name not in _SUPPORTED_DTYPES:
        raise TypeError(f'{caller} does not support dtype {dtype.name}; '
                        f'expected one of {", ".join(_SUPPORTED_DTYPES)}')


def _check_array(caller, x):
    if not _is_array(x):
        raise ValueError(f'{caller}: every message object must be a NumPy or CuPy array, '
                         f'got {type(x).__name__}')
    _check_dtype(caller, x.dtype)


def _message(caller, data, allow_tuple=True):
    """Checks a message; returns ``(arrays, is_tuple)``."""
    if _is_array(data):
        _check_dtype(caller, data.dtype)
        return (data,), False
    if not isinstance(data, collections.abc.Iterable):
        raise TypeError(f'{caller}: the message must be a NumPy/CuPy array or a tuple of '
                        f'them, got {type(data).__name__}')
    arrays = tuple(data)
    for x in arrays:
        if not _is_array(x):
            raise ValueError(f'{caller}: every message object must be a NumPy or CuPy '
                             f'array, got {type(x).__name__}')
    if not arrays:
        raise IndexError(f'{caller}: the message is an empty sequence; it needs an array')
    if len({x.dtype for x in arrays}) > 1:
        raise TypeError(f'{caller}: the arrays of a message must share one dtype, got '
                        f'{", ".join(sorted({x.dtype.name for x in arrays}))}')
    _check_dtype(caller, arrays[0].dtype)
    if not allow_tuple:
        raise TypeError(f'{caller} cannot handle tuple data; pass a single array')
    return arrays, True


def _sequence(caller, xs, size, check):
    """Checks the per-process arrays of scatter/alltoall; returns them as a tuple."""
    if _is_array(xs) or isinstance(xs, collections.abc.Iterable):
        xs = tuple(xs)
    else:
        raise TypeError(f'{caller}: expected a tuple of {size} arrays, got '
                        f'{type(xs).__name__}')
    for x in xs:
        check(caller, x)
    if len(xs) != size:
        raise ValueError(f'{caller}: the length of xs must equal the communicator size '
                         f'({size}), got {len(xs)}')
    return xs


def _check_single_message(caller, x):
    _message(caller, x, allow_tuple=False)


def _spec(x):
    return (x.shape, x.dtype.str, _is_cupy_array(x))


def _host_bytes(x):
    """A contiguous host copy (or view) of ``x`` as a flat byte array."""
    return _to_host(x).reshape(-1).view(numpy.uint8)


def _nbytes(spec):
    shape, dtype, _ = spec
    return int(numpy.prod(shape, dtype=numpy.int64)) * numpy.dtype(dtype).itemsize


def _from_bytes(buf, spec):
    """The array of ``spec`` read from the byte array ``buf`` (on the GPU if it was sent so)."""
    shape, dtype, on_gpu = spec
    x = buf.view(dtype).reshape(shape)
    if on_gpu:
        from chainer.backends import cuda
        if cuda.available:
            return cuda.cupy.asarray(x)
    return x


def _split(buf, specs):
    out, offset = [], 0
    for spec in specs:
        n = _nbytes(spec)
        out.append(_from_bytes(buf[offset:offset + n], spec))
        offset += n
    return tuple(out)


def _counts_displs(specs):
    counts = [_nbytes(s) for s in specs]
    displs = numpy.concatenate(([0], numpy.cumsum(counts)[:-1])).astype(numpy.int64).tolist()
    return counts, displs


class MpiCommunicatorBase(communicator_base.CommunicatorBase):
    """Base of the communicators that run over an mpi4py communicator.

    It implements every collective, the object transfers and ``bcast_data``; subclasses
    implement :meth:`multi_node_mean_grad`.

    Args:
        mpi_comm: The mpi4py communicator (e.g. ``mpi4py.MPI.COMM_WORLD``).
    """

    def __init__(self, mpi_comm):
        super().__init__()
        self.mpi_comm = mpi_comm
        self._init_ranks()
        self._buffers = _memory_utility.BufferCache()
        self.set_config('batched_copy', True)

    def _init_ranks(self):
        ranks = _communication_utility.init_ranks(self.mpi_comm)
        assert ranks[0] == self.mpi_comm.rank
        self._intra_rank, self._intra_size = ranks[1], ranks[2]
        self._inter_rank, self._inter_size = ranks[3], ranks[4]

    @property
    def rank(self):
        return self.mpi_comm.rank

    @property
    def size(self):
        return self.mpi_comm.size

    @property
    def intra_rank(self):
        return self._intra_rank

    @property
    def intra_size(self):
        return self._intra_size

    @property
    def inter_rank(self):
        return self._inter_rank

    @property
    def inter_size(self):
        return self._inter_size

    def set_config(self, name, value=True, **kwargs):
        """Sets a setting; MPI communicators know ``batched_copy`` (a bool, default True).

        In ChainerMN, ``batched_copy`` packs the gradients with one GPU kernel instead of one
        copy per parameter; here packing is always one concatenation, and the setting is
        kept for compatibility.
        """
        if name == 'batched_copy':
            self._configs['batched_copy'] = bool(value)
        else:
            super().set_config(name, **kwargs)

    def get_config(self, name=None):
        return super().get_config(name)

    def split(self, color, key):
        """Splits the processes like ``MPI_Comm_split``; the new communicator keeps the
        settings of this one."""
        new = type(self)(mpi_comm=self.mpi_comm.Split(color, key))
        for name, value in self.get_config().items():
            if not name.startswith('_'):
                new.set_config(name, value)
        return new

    # -- arrays --------------------------------------------------------------------------

    def send(self, data, dest, tag):
        try:
            arrays, is_tuple = _message('send', data)
        except Exception as e:
            # Tell the receiver, which otherwise waits for a message that never comes.
            self.mpi_comm.send(_RemoteError(self.rank, e), dest=dest, tag=tag)
            raise
        MPI = _mpi.mpi()
        self.mpi_comm.send((is_tuple, [_spec(x) for x in arrays]), dest=dest, tag=tag)
        for x in arrays:
            self.mpi_comm.Send([_host_bytes(x), MPI.BYTE], dest=dest, tag=tag)

    def recv(self, source, tag):
        MPI = _mpi.mpi()
        status = MPI.Status()
        header = self.mpi_comm.recv(source=source, tag=tag, status=status)
        if isinstance(header, _RemoteError):  # the sender's data was invalid
            header.raise_('recv')
        # With a wildcard source or tag, the data comes from where the header came from.
        source, tag = status.Get_source(), status.Get_tag()
        is_tuple, specs = header
        out = []
        for spec in specs:
            buf = numpy.empty(_nbytes(spec), numpy.uint8)
            self.mpi_comm.Recv([buf, MPI.BYTE], source=source, tag=tag)
            out.append(_from_bytes(buf, spec))
        return tuple(out) if is_tuple else out[0]

    def _bcast_header(self, caller, root, make):
        # The root checks its input and broadcasts the header it makes, or its error.
        header = err = None
        if self.rank == root:
            try:
                header = make()
            except Exception as e:
                err, header = e, _RemoteError(self.rank, e)
        header = self.mpi_comm.bcast(header, root=root)
        if err is not None:
            raise err
        if isinstance(header, _RemoteError):
            header.raise_(caller)
        return header

    def bcast(self, x, root=0):
        def make():
            if _message('bcast', x)[1]:
                raise TypeError('bcast: tuple data cannot be broadcast; pass one array')
            return _spec(x)

        header = self._bcast_header('bcast', root, make)
        MPI = _mpi.mpi()
        buf = _host_bytes(x) if self.rank == root else numpy.empty(_nbytes(header), numpy.uint8)
        self.mpi_comm.Bcast([buf, MPI.BYTE], root=root)
        return x if self.rank == root else _from_bytes(buf, header)

    def _exchange_specs(self, caller, x):
        # Every process learns every other's shape and dtype (or error) before the data moves.
        try:
            _message(caller, x, allow_tuple=False)
            spec = _spec(x)
        except Exception as e:
            spec = _RemoteError(self.rank, e)
        specs = self.mpi_comm.allgather(spec)
        if isinstance(spec, _RemoteError):
            spec.raise_(caller)
        _raise_first_remote_error(caller, specs)
        return specs

    def gather(self, x, root=0):
        specs = self._exchange_specs('gather', x)
        MPI = _mpi.mpi()
        send = [_host_bytes(x), MPI.BYTE]
        if self.rank != root:
            self.mpi_comm.Gatherv(send, None, root=root)
            return None
        counts, displs = _counts_displs(specs)
        buf = numpy.empty(sum(counts), numpy.uint8)
        self.mpi_comm.Gatherv(send, [buf, (counts, displs), MPI.BYTE], root=root)
        return _split(buf, specs)

    def allgather(self, x):
        specs = self._exchange_specs('allgather', x)
        MPI = _mpi.mpi()
        counts, displs = _counts_displs(specs)
        buf = numpy.empty(sum(counts), numpy.uint8)
        self.mpi_comm.Allgatherv([_host_bytes(x), MPI.BYTE], [buf, (counts, displs), MPI.BYTE])
        return _split(buf, specs)

    def allreduce(self, x):
        arrays, is_tuple = _message('allreduce', x)
        if is_tuple:
            raise TypeError('allreduce cannot handle tuple data; pass a single array')
        xp = backend.get_array_module(x)
        host = _to_host(x)
        out = _allreduce_sum(self.mpi_comm, host)
        return xp.asarray(out) if xp is not numpy else out

    def scatter(self, xs, root=0):
        def make():
            checked.extend(_sequence('scatter', xs, self.size, _check_array))
            return [_spec(x) for x in checked]

        checked = []
        header = self._bcast_header('scatter', root, make)
        MPI = _mpi.mpi()
        counts, displs = _counts_displs(header)
        mine = numpy.empty(counts[self.rank], numpy.uint8)
        send = None
        if self.rank == root:
            packed = numpy.concatenate([_host_bytes(x) for x in checked])
            send = [packed, (counts, displs), MPI.BYTE]
        self.mpi_comm.Scatterv(send, [mine, MPI.BYTE], root=root)
        return _from_bytes(mine, header[self.rank])

    def alltoall(self, xs):
        try:
            xs = _sequence('alltoall', xs, self.size, _check_single_message)
            _message('alltoall', xs)
            specs = [_spec(x) for x in xs]
        except Exception as e:
            specs = [_RemoteError(self.rank, e)] * self.size
        incoming = self.mpi_comm.alltoall(specs)
        if isinstance(specs[0], _RemoteError):
            specs[0].raise_('alltoall')
        _raise_first_remote_error('alltoall', incoming)
        MPI = _mpi.mpi()
        scounts, sdispls = _counts_displs(specs)
        rcounts, rdispls = _counts_displs(incoming)
        packed = numpy.concatenate([_host_bytes(x) for x in xs])
        buf = numpy.empty(sum(rcounts), numpy.uint8)
        self.mpi_comm.Alltoallv([packed, (scounts, sdispls), MPI.BYTE],
                                [buf, (rcounts, rdispls), MPI.BYTE])
        return _split(buf, incoming)

    # -- objects -------------------------------------------------------------------------

    def _check_obj_type_for_chainerx(self, obj):
        # ChainerMN refuses ChainerX arrays on CUDA here; rechainer has no ChainerX arrays.
        return None

    def send_obj(self, obj, dest, tag=0):
        self.mpi_comm.send(obj, dest=dest, tag=tag)

    def recv_obj(self, source, status=None, tag=-1):
        """Receives an object; ``tag=-1`` (``MPI.ANY_TAG``) accepts any tag, and ``status``
        (an ``mpi4py.MPI.Status``) receives the actual source and tag."""
        return self.mpi_comm.recv(source=source, status=status, tag=tag)

    def bcast_obj(self, obj, max_buf_len=_communication_utility._DEFAULT_MAX_BUF_LEN, root=0):
        return chunked_bcast_obj(obj, self.mpi_comm, max_buf_len=max_buf_len, root=root)

    def gather_obj(self, obj, root=0):
        return self.mpi_comm.gather(obj, root=root)

    def allreduce_obj(self, obj):
        return self.mpi_comm.allreduce(obj)

    # -- models --------------------------------------------------------------------------

    def bcast_data(self, model):
        # All parameters as one byte message: no reduction, so dtypes may differ.
        params = _memory_utility.extract_params_set_data(model)
        if not params:
            return
        MPI = _mpi.mpi()
        if self.rank == 0:
            buf = numpy.concatenate([_host_bytes(p.array) for p in params])
        else:
            buf = numpy.empty(sum(p.array.nbytes for p in params), numpy.uint8)
        self.mpi_comm.Bcast([buf, MPI.BYTE], root=0)
        if self.rank != 0:
            offset = 0
            for p in params:
                n = p.array.nbytes
                _copy_into(p.array, buf[offset:offset + n].view(p.array.dtype))
                offset += n

    def _multi_node_mean(self, sendbuf, recvbuf):
        """Sums the host array ``sendbuf`` over all processes into ``recvbuf`` and divides by
        the number of processes (``sendbuf`` may be ``recvbuf``, for in place)."""
        MPI = _mpi.mpi()
        if sendbuf is recvbuf:
            self.mpi_comm.Allreduce(MPI.IN_PLACE, recvbuf, op=MPI.SUM)
        else:
            self.mpi_comm.Allreduce(sendbuf, recvbuf, op=MPI.SUM)
        recvbuf /= self.size

    def _ensure_all_finite(self, array):
        xp = backend.get_array_module(array)
        if not bool(xp.isfinite(array).all()):
            raise ValueError('multi_node_mean_grad: parameters diverged after allreduce '
                             '(the averaged gradients hold NaN or Inf)')

    def _check_ready_to_allreduce(self, array_a, array_b):
        if array_a.size != array_b.size:
            raise ValueError(f'multi_node_mean_grad: buffer sizes differ '
                             f'({array_a.size} != {array_b.size})')

    def _pack_params_to_buffer(self, params, attr_name, buffer, allreduce_grad_dtype,
                               zero_fill, stream=None):
        return _memory_utility.pack_params(params, attr_name, buffer, allreduce_grad_dtype,
                                           zero_fill, stream)

    def _unpack_params_from_buffer(self, params, attr_name, buffer, allreduce_grad_dtype,
                                   zero_fill, stream=None):
        _memory_utility.unpack_params(params, attr_name, buffer, allreduce_grad_dtype,
                                      zero_fill, stream)

    def _packed_mean_grad(self, model, zero_fill, communicate=True):
        """Averages all gradients as one buffer, through host memory.

        The buffer's dtype is the widest gradient dtype (float16 grows to float32: MPI has no
        portable float16 sum), so no gradient loses precision on the way.
        """
        params = _memory_utility.extract_params_set_grad(model, zero_fill)
        if not params:
            return
        if zero_fill:
            _memory_utility.fill_missing_grads(params)
        dtype = numpy.result_type(numpy.float32, *[p.grad.dtype for p in params])
        n = _memory_utility.count_grad_elements(params, zero_fill)
        xp = backend.get_array_module(params[0].grad)
        buf = self._pack_params_to_buffer(params, 'grad', self._buffers.get(xp, dtype, n),
                                          dtype, zero_fill)
        if not communicate:
            return
        host = _to_host(buf)
        self._multi_node_mean(host, host)
        if chainer.is_debug():
            self._ensure_all_finite(host)
        if xp is not numpy:
            buf.set(host)
        self._unpack_params_from_buffer(params, 'grad', buf, dtype, zero_fill)


def _to_host(x):
    """A contiguous NumPy copy or view of ``x``."""
    if _is_cupy_array(x):
        x = x.get()
    # Not ascontiguousarray: it turns a 0-d array into a 1-d one.
    return x if x.flags.c_contiguous else x.copy(order='C')


def _copy_into(target, host):
    """Copies the host array ``host`` into ``target`` (NumPy or CuPy) in place."""
    if _is_cupy_array(target):
        target.set(host.reshape(target.shape))
    else:
        numpy.copyto(target, host.reshape(target.shape))


def _allreduce_sum(mpi_comm, host):
    """The elementwise sum of the host array ``host`` over ``mpi_comm``, in its dtype."""
    MPI = _mpi.mpi()
    work = host.astype(numpy.float32) if host.dtype == numpy.float16 else host
    out = numpy.empty_like(work)
    mpi_comm.Allreduce(work, out, op=MPI.SUM)
    return out.astype(host.dtype, copy=False)
