"""A communicator that packs gradients but exchanges nothing, to measure packing alone."""
from chainermn.communicators import mpi_communicator_base


class DummyCommunicator(mpi_communicator_base.MpiCommunicatorBase):
    """Packs the gradients into one buffer as ``flat`` does, then skips the allreduce.

    The gradients are left as they are. It is meant for measuring how much of a step the
    packing costs. Other methods (``bcast_data``, the collectives) communicate normally.

    Args:
        mpi_comm: The mpi4py communicator.
    """

    def __init__(self, mpi_comm):
        super().__init__(mpi_comm)

    def multi_node_mean_grad(self, model, zero_fill=False):
        self._packed_mean_grad(model, zero_fill, communicate=False)
