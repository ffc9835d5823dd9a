"""A communicator that averages all gradients as one packed buffer."""
from chainermn.communicators import mpi_communicator_base


class FlatCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Averages all gradients of a model with one MPI allreduce over a packed buffer.

    ChainerMN's ``flat`` needs CuPy and a CUDA-aware MPI; this one runs on NumPy arrays too,
    and moves CuPy arrays through host memory, so any MPI build works.

    Args:
        mpi_comm: The mpi4py communicator.
    """

    def __init__(self, mpi_comm):
        super().__init__(mpi_comm)

    def multi_node_mean_grad(self, model, zero_fill=False):
        self._packed_mean_grad(model, zero_fill)
