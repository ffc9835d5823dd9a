"""ChainerMN communicators and :func:`create_communicator`."""
from chainer.utils import argument
from chainermn.communicators.communicator_base import CommunicatorBase  # NOQA

_CLASSES = {
    'naive': ('naive_communicator', 'NaiveCommunicator'),
    'flat': ('flat_communicator', 'FlatCommunicator'),
    'non_cuda_aware': ('non_cuda_aware_communicator', 'NonCudaAwareCommunicator'),
    'pure_nccl': ('pure_nccl_communicator', 'PureNcclCommunicator'),
    'dummy': ('dummy_communicator', 'DummyCommunicator'),
}


def create_communicator(communicator_name='pure_nccl', mpi_comm=None, **kwargs):
    """Creates a communicator over the processes of an MPI job.

    ======================  ===  ===  =================================================
    communicator_name       CPU  GPU  how gradients are averaged
    ======================  ===  ===  =================================================
    ``pure_nccl`` (default)      OK   NCCL on the GPUs, one packed buffer (needs NCCL 2)
    ``flat``                OK   OK   one MPI allreduce of a packed buffer
    ``non_cuda_aware``      OK   OK   as ``flat``; the buffer crosses MPI in host memory
    ``naive``               OK   OK   one MPI allreduce per parameter
    ``dummy``               OK   OK   packs the gradients and exchanges nothing
    ======================  ===  ===  =================================================

    GPU arrays cross MPI through host memory, so any MPI build works. ``pure_nccl`` chooses
    the dtype of the gradients inside NCCL from ``allreduce_grad_dtype`` and
    ``chainer.config.dtype`` (see :class:`~chainermn.communicators.pure_nccl_communicator.
    PureNcclCommunicator`); the MPI communicators keep each gradient's own precision.

    Args:
        communicator_name (str): One of the names above.
        mpi_comm: The mpi4py communicator to run over (default: ``MPI.COMM_WORLD``).
        allreduce_grad_dtype: dtype of the gradients inside NCCL (``pure_nccl`` only).
        batched_copy (bool): Kept as a setting for compatibility (default True); gradients
            are always packed with one concatenation.

    Returns:
        ~chainermn.CommunicatorBase: The communicator.

    Raises:
        ImportError: If mpi4py is not installed (``pip install 'rechainer[mpi]'``).
        ValueError: For an unknown name, or ``allreduce_grad_dtype`` with another
            communicator than ``pure_nccl``.
        RuntimeError: For ``pure_nccl`` without CuPy and NCCL.
    """
    allreduce_grad_dtype, batched_copy = argument.parse_kwargs(
        kwargs, ('allreduce_grad_dtype', None), ('batched_copy', True))
    if allreduce_grad_dtype is not None and communicator_name != 'pure_nccl':
        raise ValueError("allreduce_grad_dtype is only available at 'pure_nccl' communicator, "
                         f'not {communicator_name!r}')
    if communicator_name not in _CLASSES:
        raise ValueError(f'Unrecognized communicator: "{communicator_name}"; expected one of '
                         f'{", ".join(sorted(_CLASSES))}')
    if mpi_comm is None:
        from chainermn import _mpi
        mpi_comm = _mpi.mpi().COMM_WORLD
    import importlib
    module_name, class_name = _CLASSES[communicator_name]
    module = importlib.import_module(f'chainermn.communicators.{module_name}')
    comm = getattr(module, class_name)(mpi_comm=mpi_comm)
    comm.set_config('batched_copy', batched_copy)
    if communicator_name == 'pure_nccl':
        comm.set_config('allreduce_grad_dtype', allreduce_grad_dtype)
    return comm
