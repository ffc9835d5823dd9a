"""send and recv: differentiable point-to-point communication between two processes."""
import chainer
from chainer import backend
from chainer import function_node
from chainermn.functions import _delegate


def _as_message(arrays):
    # One array travels alone; several as a tuple (the receiver gets them the same way).
    return arrays[0] if len(arrays) == 1 else tuple(arrays)


def _as_tuple(data):
    return data if isinstance(data, tuple) else (data,)


class _PointToPoint(function_node.FunctionNode):

    def __init__(self, comm, peer_rank, peer_tag):
        self.comm = comm
        self.peer_rank = peer_rank
        self.peer_tag = peer_tag

    @property
    def label(self):
        return f'{self.__class__.__name__} (peer_rank: {self.peer_rank})'


class Send(_PointToPoint):
    """Sends its inputs to ``peer_rank``; its output is a delegate variable.

    Backward receives the gradients of the inputs from the peer, which sends them from the
    backward of its :class:`Recv`.
    """

    def forward(self, inputs):
        self.comm.send(_as_message(inputs), self.peer_rank, self.peer_tag)
        return backend.get_array_module(*inputs).empty((0,), 'f'),

    def backward(self, target_input_indexes, grad_outputs):
        grads = _as_tuple(self.comm.recv(self.peer_rank, self.peer_tag))
        return tuple([chainer.Variable(grads[i], requires_grad=False)
                      for i in target_input_indexes])


class Recv(_PointToPoint):
    """Receives arrays from ``peer_rank``; its input is a delegate variable.

    Backward sends the gradients of the received arrays back to the peer (zeros for those
    that got none), and gives the delegate a zero gradient.
    """

    def forward(self, inputs):
        delegate = inputs[0]
        xp = backend.get_array_module(delegate)
        self._delegate_spec = delegate.shape, delegate.dtype, xp
        received = _as_tuple(self.comm.recv(self.peer_rank, self.peer_tag))
        self._out_specs = [(y.shape, y.dtype) for y in received]
        return received

    def backward(self, target_input_indexes, grad_outputs):
        shape, dtype, xp = self._delegate_spec
        grads = tuple([xp.zeros(s, d) if g is None else g.array
                       for g, (s, d) in zip(grad_outputs, self._out_specs)])
        self.comm.send(_as_message(grads), self.peer_rank, self.peer_tag)
        return _delegate.zeros_like(shape, dtype, xp),


def send(x, communicator, rank, tag=0):
    """Sends a variable (or a tuple of them) to another process, differentiably.

    The receiving process calls :func:`recv` with the same ``tag``. Backward of the returned
    delegate variable receives the gradient of ``x`` from that process, so the receiver must
    backpropagate through what it received.

    Args:
        x (~chainer.Variable or tuple of ~chainer.Variable): What to send (one dtype).
        communicator (~chainermn.CommunicatorBase): The communicator.
        rank (int): Rank of the receiver (not this process's).
        tag (int): Tag matching the receiver's.

    Returns:
        ~chainer.Variable: A delegate variable (empty), whose backward receives the gradient.
        Backpropagate from it with ``phi.backward()``, or join it to a loss with
        :func:`pseudo_connect`.
    """
    chainer.utils.experimental('chainermn.functions.send')
    _delegate.check_rank('send', 'rank', rank, communicator)
    inputs = tuple(x) if isinstance(x, (tuple, list)) else (x,)
    if not inputs:
        raise ValueError('send: x is an empty sequence; it needs a variable')
    delegate, = Send(communicator, rank, tag).apply(inputs)
    return _delegate.handed_out(delegate)


def recv(communicator, rank, delegate_variable=None, tag=0, force_tuple=False):
    """Receives what another process sent with :func:`send`, differentiably.

    Backward sends the gradient of the received variables back to the sender.

    Args:
        communicator (~chainermn.CommunicatorBase): The communicator.
        rank (int): Rank of the sender (not this process's).
        delegate_variable (~chainer.Variable): A delegate variable from an earlier
            :func:`send` of this process. The received variables then depend on it, so that
            backward runs that send's backward after this receive's, in the reverse order of
            the forward communications (which keeps the processes in step).
        tag (int): Tag of the message.
        force_tuple (bool): Return a tuple even when a single variable was sent.

    Returns:
        ~chainer.Variable or tuple of ~chainer.Variable: What was sent.
    """
    chainer.utils.experimental('chainermn.functions.recv')
    _delegate.check_rank('recv', 'rank', rank, communicator)
    if delegate_variable is None:
        delegate_variable = _delegate.new()
    ys = Recv(communicator, rank, tag).apply((delegate_variable,))
    if len(ys) == 1 and not force_tuple:
        return ys[0]
    return ys
