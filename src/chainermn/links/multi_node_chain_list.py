"""MultiNodeChainList: a model whose parts run on different processes."""
import collections

import numpy

import chainer
import chainermn
import chainermn.functions


def _ranks(name, ranks, comm):
    """``None``, or the list of ranks that ``ranks`` (an int or a sequence of ints) names."""
    if ranks is None:
        return None
    listed = [ranks] if isinstance(ranks, (int, numpy.integer)) else ranks
    if isinstance(listed, (str, bytes)) or not isinstance(listed, collections.abc.Iterable):
        raise TypeError(f'MultiNodeChainList.add_link: {name} must be None, a rank (int) or a '
                        f'list of ranks, got {type(ranks).__name__}')
    listed = list(listed)
    for rank in listed:
        if isinstance(rank, bool) or not isinstance(rank, (int, numpy.integer)):
            raise TypeError(f'MultiNodeChainList.add_link: the ranks of {name} must be ints, '
                            f'got {rank!r}')
        if not 0 <= rank < comm.size:
            raise ValueError(f'MultiNodeChainList.add_link: {name} names rank {rank}, outside '
                             f'[0, {comm.size}) (the communicator size)')
    if not listed:
        raise ValueError(f'MultiNodeChainList.add_link: {name} is an empty list; pass None '
                         'for no communication')
    return [int(r) for r in listed]


def _anchor(value, default=None):
    # One variable that depends on everything ``value`` (a variable or a tuple of them)
    # depends on; ``default`` when there is none.
    if isinstance(value, (tuple, list)):
        value = value[0] if value else None
    return value if isinstance(value, chainer.Variable) else default


def _connect(last, value):
    """``value`` made to depend on ``last`` in the graph (values unchanged)."""
    if last is None or last is _anchor(value):
        return value
    if isinstance(value, (tuple, list)):
        return chainermn.functions.pseudo_connect(last, *value)
    return chainermn.functions.pseudo_connect(last, value)[0]


class MultiNodeChainList(chainer.ChainList):
    """A chain of links whose inputs and outputs may come from and go to other processes.

    Each process builds its own ``MultiNodeChainList`` with its part of the model, adding links
    with :meth:`add_link`: a link takes the arguments of the call (``rank_in=None``) or what
    other processes send it, and returns the result of the call (``rank_out=None``, at most
    one link) or sends it to other processes. Calling the chain runs its links in order;
    backward sends the gradients back across the processes.

    The call returns the output of the link with ``rank_out=None`` or, on a process without
    one, a delegate variable: call ``backward()`` on it. Every process must backpropagate,
    so that the gradients it receives and sends find their peers.

    The communications of one process are chained in the graph, in the order of the forward
    pass, so backward runs them in exactly the reverse order on every process: processes whose
    forward passes match never wait for each other forever. A link may send to this
    process's own rank: the output is handed to the next link that receives from it, without
    communication.

    Args:
        comm (~chainermn.CommunicatorBase): The communicator.
    """

    def __init__(self, comm):
        chainer.utils.experimental('chainermn.MultiNodeChainList')
        super().__init__()
        self._comm = comm
        self._rank_inouts = []

    def add_link(self, link, rank_in=None, rank_out=None):
        """Appends a link and says where its input comes from and its output goes.

        Args:
            link (~chainer.Link): The link (a Chain with ``forward``, usually).
            rank_in (int, list of ints or None): Ranks that send this link its inputs (one
                argument each, in this order), or ``None`` for the arguments of the call.
            rank_out (int, list of ints or None): Ranks that this link's output is sent to,
                or ``None`` for the result of the call (one link at most).
        """
        rank_in = _ranks('rank_in', rank_in, self._comm)
        rank_out = _ranks('rank_out', rank_out, self._comm)
        if rank_out is None and any(out is None for _, out in self._rank_inouts):
            raise ValueError('MultiNodeChainList.add_link: only one link can have '
                             'rank_out=None (it gives the result of the call); send the others '
                             'somewhere with rank_out')
        super().add_link(link)
        self._rank_inouts.append((rank_in, rank_out))

    def __call__(self, *inputs):
        # (ChainerMN's signature; Link.__call__ runs the hooks around forward)
        return super().__call__(*inputs)

    def forward(self, *inputs):
        """Runs the links in order, communicating as :meth:`add_link` said.

        Returns:
            The output of the link with ``rank_out=None``, or a delegate variable.
        """
        comm = self._comm
        last = None     # depends on every communication so far (None: none yet)
        local = collections.deque()     # outputs sent to this process itself
        y = y_last = None
        for link, (rank_in, rank_out) in zip(self, self._rank_inouts):
            if rank_in is None:
                args = _connect(last, tuple(inputs)) if inputs else ()
                if last is not None:
                    last = _anchor(args, last)
            else:
                args = []
                for rank in rank_in:
                    if rank == comm.rank:
                        if not local:
                            raise ValueError(
                                f'MultiNodeChainList: link {len(args)} receives from this '
                                f'process (rank {rank}), but no earlier link sent its output '
                                'here (rank_out)')
                        x = _connect(last, local.popleft())
                    else:
                        x = chainermn.functions.recv(comm, rank, delegate_variable=last)
                    last = _anchor(x, last)
                    args.append(x)
            out = link(*args)
            if last is not None:
                last = _anchor(out, last)
            if rank_out is None:
                y, y_last = out, last
                continue
            for rank in rank_out:
                if rank == comm.rank:
                    local.append(out)
                else:
                    last = chainermn.functions.send(_connect(last, out), comm, rank)
        if y is None:
            return last
        if last is not y_last:
            # Communications after the output: backward from the output must reach them.
            y = _connect(last, y)
        return y
