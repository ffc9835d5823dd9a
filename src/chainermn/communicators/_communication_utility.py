"""Process topology, NCCL set-up and chunked object transfer shared by the communicators."""
import pickle

import numpy

from chainermn import _mpi

try:
    # As in ChainerMN, importing this module (which every communicator does) loads mpi4py.MPI,
    # so that ``mpi4py.MPI`` is reachable after ``import mpi4py``; ``import chainermn`` does not.
    import mpi4py.MPI  # NOQA
except ImportError:
    pass

# MPI counts are C ints: one message carries at most this many elements.
INT_MAX = 2 ** 31 - 1
_DEFAULT_MAX_BUF_LEN = 256 * 1024 * 1024


def init_ranks(mpi_comm):
    """Works out where this process sits among the machines of ``mpi_comm``.

    Processes on the same host (same ``MPI.Get_processor_name()``) form a node; nodes are
    numbered in the order of their lowest rank.

    Args:
        mpi_comm: An mpi4py communicator.

    Returns:
        list: ``[rank, intra_rank, intra_size, inter_rank, inter_size]``.
    """
    MPI = _mpi.mpi()
    hosts = mpi_comm.allgather(MPI.Get_processor_name())
    rank = mpi_comm.rank
    nodes = list(dict.fromkeys(hosts))
    mine = hosts[rank]
    intra_rank = hosts[:rank].count(mine)
    intra_size = hosts.count(mine)
    return [rank, intra_rank, intra_size, nodes.index(mine), len(nodes)]


def init_intra_mpi_comm(mpi_comm, intra_rank, inter_rank):
    """A communicator of the processes on this node, ranked by ``intra_rank``."""
    return mpi_comm.Split(inter_rank, intra_rank)


def init_inter_mpi_comm(mpi_comm, intra_rank, inter_rank):
    """A communicator of the processes with this ``intra_rank``, one per node."""
    return mpi_comm.Split(intra_rank, inter_rank)


def init_nccl_comm(mpi_comm):
    """Creates an NCCL communicator over the processes of ``mpi_comm``.

    Rank 0 draws the NCCL unique id and broadcasts it through MPI. Each process must have
    selected its GPU (``chainer.cuda.get_device_from_id(i).use()``) beforehand.
    """
    from chainermn import nccl  # loads CuPy: only when NCCL is wanted
    if not nccl._available:
        raise RuntimeError('NCCL is not available: it needs CuPy built with NCCL '
                           "(pip install 'rechainer[cuda]' on a machine with CUDA)")
    uid = nccl.get_unique_id() if mpi_comm.rank == 0 else None
    uid = mpi_comm.bcast(uid, root=0)
    return nccl.NcclCommunicator(mpi_comm.size, uid, mpi_comm.rank)


def _get_nccl_type_id(dtype):
    """The NCCL data type constant of ``dtype`` (float16/32/64, int32/64)."""
    from chainermn import nccl
    name = numpy.dtype(dtype).name
    table = {'float16': 'NCCL_FLOAT16', 'float32': 'NCCL_FLOAT32', 'float64': 'NCCL_FLOAT64',
             'int32': 'NCCL_INT32', 'int64': 'NCCL_INT64'}
    if name not in table:
        raise ValueError(f'NCCL cannot communicate dtype {name}; '
                         f'expected one of {", ".join(table)}')
    return getattr(nccl, table[name])


def _check_max_buf_len(max_buf_len):
    # AssertionError is the type ChainerMN raises here; the message says what is wrong.
    if not 0 < max_buf_len < INT_MAX:
        raise AssertionError(f'max_buf_len must be in (0, {INT_MAX}) (a chunk is one MPI '
                             f'message), got {max_buf_len}')


def _chunks(n, max_buf_len):
    return ((i, min(i + max_buf_len, n)) for i in range(0, n, max_buf_len))


def chunked_bcast_obj(obj, mpi_comm, max_buf_len=_DEFAULT_MAX_BUF_LEN, root=0):
    """Broadcasts a picklable object in messages of at most ``max_buf_len`` bytes.

    mpi4py's ``bcast`` sends the pickle in one message, which fails beyond 2 GiB; this sends
    its length first and then the bytes in chunks.

    Args:
        obj: The object (used on ``root`` only).
        mpi_comm: An mpi4py communicator.
        max_buf_len (int): Largest chunk, in bytes, ``0 < max_buf_len < INT_MAX``.
        root (int): Rank that holds ``obj``.

    Returns:
        ``obj`` on ``root``, an unpickled copy elsewhere.
    """
    _check_max_buf_len(max_buf_len)
    MPI = _mpi.mpi()
    data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL) if mpi_comm.rank == root else None
    n = mpi_comm.bcast(None if data is None else len(data), root=root)
    buf = memoryview(data if data is not None else bytearray(n))
    for begin, end in _chunks(n, max_buf_len):
        mpi_comm.Bcast([buf[begin:end], MPI.BYTE], root=root)
    return obj if mpi_comm.rank == root else pickle.loads(buf)


def _send_pickled(data, mpi_comm, dest, tag, max_buf_len):
    # ``data`` is a pickle (bytes): its length, then its chunks, all with the same tag so that
    # MPI's per-pair ordering keeps them together.
    MPI = _mpi.mpi()
    mpi_comm.send(len(data), dest=dest, tag=tag)
    view = memoryview(data)
    for begin, end in _chunks(len(data), max_buf_len):
        mpi_comm.Send([view[begin:end], MPI.BYTE], dest=dest, tag=tag)


def _recv_pickled(mpi_comm, source, tag, max_buf_len):
    MPI = _mpi.mpi()
    n = mpi_comm.recv(source=source, tag=tag)
    buf = bytearray(n)
    view = memoryview(buf)
    for begin, end in _chunks(n, max_buf_len):
        mpi_comm.Recv([view[begin:end], MPI.BYTE], source=source, tag=tag)
    return pickle.loads(buf)
