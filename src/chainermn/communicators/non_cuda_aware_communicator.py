"""A communicator for MPI builds that cannot read GPU memory."""
from chainermn.communicators import mpi_communicator_base


class NonCudaAwareCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Averages all gradients as one packed buffer that crosses MPI in host memory.

    ChainerMN's ``non_cuda_aware`` needs CuPy and NCCL (it reduces within each machine with
    NCCL); this one packs the gradients on their device, copies the buffer to the host for
    the MPI allreduce and back, and also runs on NumPy arrays.

    Args:
        mpi_comm: The mpi4py communicator.
    """

    def __init__(self, mpi_comm):
        super().__init__(mpi_comm)
        self.intra_nccl_comm = None

    def _init_comms(self):
        # Nothing to set up: every exchange goes through MPI in host memory.
        pass

    def finalize(self):
        self.intra_nccl_comm = None
        self._buffers.clear()

    def multi_node_mean_grad(self, model, zero_fill=False):
        self._packed_mean_grad(model, zero_fill)
