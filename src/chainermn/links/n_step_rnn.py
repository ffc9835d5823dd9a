"""create_multi_node_n_step_rnn: an n-step RNN whose states come from and go to other processes."""
import chainer
import chainermn.functions
from chainer.links.rnn import n_step_rnn as _n_step_rnn
from chainermn.functions import _delegate


class _MultiNodeNStepRNN(chainer.Chain):
    """Wraps an n-step RNN link (``actual_rnn``); see :func:`create_multi_node_n_step_rnn`."""

    def __init__(self, link, communicator, rank_in, rank_out):
        super().__init__()
        if not isinstance(link, _n_step_rnn.NStepRNNBase):
            raise TypeError('create_multi_node_n_step_rnn: actual_link must be an n-step RNN '
                            '(NStepLSTM, NStepGRU, NStepRNNTanh, ... or their Bi versions), '
                            f'got {type(link).__name__}')
        for name, rank in (('rank_in', rank_in), ('rank_out', rank_out)):
            if rank is not None:
                _delegate.check_rank('create_multi_node_n_step_rnn', name, rank, communicator)
        with self.init_scope():
            self.actual_rnn = link
        self.communicator = communicator
        self.rank_in = rank_in
        self.rank_out = rank_out

    def forward(self, *inputs):
        """Runs the RNN on ``inputs`` (the sequences ``xs``).

        The initial states are received from ``rank_in`` (zeros without one); the final
        states are sent to ``rank_out``.

        Returns:
            tuple: The outputs of the RNN (``hy, cy, ys`` for an LSTM, ``hy, ys`` otherwise)
            followed by the delegate variable of the send (``None`` without ``rank_out``).
        """
        n_cells = self.actual_rnn.n_cells
        if self.rank_in is None:
            cells = (None,) * n_cells
        else:
            cells = chainermn.functions.recv(self.communicator, self.rank_in, force_tuple=True)
        outputs = self.actual_rnn(*cells, *inputs)
        delegate = None
        if self.rank_out is not None:
            delegate = chainermn.functions.send(tuple(outputs[:n_cells]), self.communicator,
                                                self.rank_out)
        return tuple(outputs) + (delegate,)


def create_multi_node_n_step_rnn(actual_link, communicator, rank_in=None, rank_out=None):
    """Makes an n-step RNN link take its initial states from another process and pass on
    its final states to another, for a stack of RNNs split across processes (an encoder on
    one, its decoder on the next).

    Args:
        actual_link (~chainer.links.NStepRNNBase): The RNN (``L.NStepLSTM``, ...).
        communicator (~chainermn.CommunicatorBase): The communicator.
        rank_in (int): Rank that sends the initial states, or ``None`` (zeros).
        rank_out (int): Rank that the final states are sent to, or ``None``.

    Returns:
        ~chainer.Chain: A link called with the sequences ``xs`` only, that returns the RNN's
        outputs followed by a delegate variable (``None`` without ``rank_out``); join the
        delegate to the loss with :func:`~chainermn.functions.pseudo_connect`. The wrapped
        RNN is its ``actual_rnn``.
    """
    chainer.utils.experimental('chainermn.links.create_multi_node_n_step_rnn')
    return _MultiNodeNStepRNN(actual_link, communicator, rank_in, rank_out)
